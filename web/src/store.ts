// The page's live state: rooms from the REST API, then kept current by the event stream (no polling).
import { useEffect, useState } from 'preact/hooks';
import { api, apiUrl } from './api';
import { appendStats, emptyHistory, fromServer, type History, type ServerSeries } from './history';
import type { LifecycleEvent, LogEntry, RoomDto, StatsEntry } from './types';

const MAX_EVENTS = 1000;
const MAX_LOGS = 2000;

type Listener = () => void;

function sameStats(a: StatsEntry, b: StatsEntry): boolean {
  for (const k of Object.keys(b) as (keyof StatsEntry)[]) if (a[k] !== b[k]) return false;
  return true;
}

class Store {
  rooms = new Map<string, RoomDto>();
  stats = new Map<string, StatsEntry>();
  /** Per objectId: the server's last hour, continued by each stats snapshot; `historyVersion` bumps on every change. */
  history = new Map<string, History>();
  historyVersion = 0;
  events: LifecycleEvent[] = [];
  logs: LogEntry[] = [];
  connected = false;
  loaded = false;
  limiterPausedUntil = 0;
  /** The live-API budget and its use (from each stats frame); null until the first. */
  api: { budgetPerMinute: number; ratePerMinute?: number; queued?: Record<string, number>; callsLastMinute: number; pauses: number; pausedUntil: number } | null = null;
  /** Counts `room` frames applied, so a test or a curious user can see the stream is doing the work. */
  roomFrames = 0;
  error: string | null = null;
  private listeners = new Set<Listener>();
  private scheduled = false;
  private source: EventSource | null = null;
  private pending: RoomDto[] | null = null;

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Coalesces many frames into one render per animation frame. */
  changed(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      for (const l of this.listeners) l();
    });
  }

  start(): void {
    if (this.source) return;
    // lastEventId=0 replays the server's buffer: recent lifecycle events for the detail and webhook pages.
    const source = new EventSource(apiUrl('api/events?lastEventId=0'));
    this.source = source;
    source.addEventListener('open', () => {
      this.connected = true;
      this.changed();
    });
    source.addEventListener('error', () => {
      this.connected = false;
      this.changed();
    });
    source.addEventListener('hello', () => void this.reload());
    source.addEventListener('reset', () => void this.reload());
    source.addEventListener('room', (e) => this.applyRoom(JSON.parse((e as MessageEvent).data) as RoomDto));
    source.addEventListener('room-removed', (e) => {
      const { objectId } = JSON.parse((e as MessageEvent).data) as { objectId: string };
      this.forget(objectId);
    });
    source.addEventListener('lifecycle', (e) => {
      this.events.push(JSON.parse((e as MessageEvent).data) as LifecycleEvent);
      if (this.events.length > MAX_EVENTS) this.events.splice(0, this.events.length - MAX_EVENTS);
      this.changed();
    });
    source.addEventListener('stats', (e) => this.applyStats(JSON.parse((e as MessageEvent).data)));
    source.addEventListener('log', (e) => this.addLogs([JSON.parse((e as MessageEvent).data) as LogEntry]));
  }

  /** The full room list; frames that arrive while it loads are applied again on top of it. */
  async reload(): Promise<void> {
    this.pending = [];
    try {
      const [rooms, logs, history] = await Promise.all([
        api<RoomDto[]>('GET', 'api/room'),
        api<{ logs: Record<string, unknown>[]; cursor: number }>('GET', 'api/log/fetch'),
        api<{ rooms: ServerSeries[] }>('GET', 'api/history'),
      ]);
      this.history = new Map(history.rooms.map((r) => [r.objectId, fromServer(r)]));
      this.historyVersion++;
      const later = this.pending;
      this.pending = null;
      this.rooms = new Map(rooms.map((r) => [r.objectId, r]));
      for (const r of later) this.rooms.set(r.objectId, r);
      const fetched = logs.logs.map((log, i) => ({ id: logs.cursor - logs.logs.length + 1 + i, log }));
      const known = new Set(this.logs.map((l) => l.id));
      this.logs = [...fetched.filter((l) => !known.has(l.id)), ...this.logs].sort((a, b) => a.id - b.id);
      this.loaded = true;
      this.error = null;
    } catch (err) {
      this.pending = null;
      this.error = (err as Error).message;
    }
    this.changed();
  }

  applyRoom(room: RoomDto): void {
    this.roomFrames++;
    this.pending?.push(room);
    this.rooms.set(room.objectId, room);
    this.changed();
  }

  forget(objectId: string): void {
    this.rooms.delete(objectId);
    this.stats.delete(objectId);
    this.history.delete(objectId);
    this.changed();
  }

  private applyStats(frame: { time: number; limiterPausedUntil: number; rooms: StatsEntry[]; api?: Store['api'] }): void {
    this.limiterPausedUntil = frame.limiterPausedUntil;
    if (frame.api) this.api = frame.api;
    for (const s of frame.rooms) {
      const prev = this.stats.get(s.objectId);
      // An unchanged entry keeps its identity, so the memoised card of an idle room is not redrawn every second.
      if (prev && sameStats(prev, s)) continue;
      this.stats.set(s.objectId, s);
      const h = this.history.get(s.objectId) ?? emptyHistory();
      appendStats(h, frame.time, s);
      this.history.set(s.objectId, h);
      this.historyVersion++;
      const room = this.rooms.get(s.objectId);
      // Stats snapshots also carry the live flags; they confirm what `room` frames already said.
      if (room && (room.recording !== s.recording || room.streaming !== s.streaming || room.danmakuConnected !== s.danmakuConnected)) {
        this.rooms.set(s.objectId, { ...room, recording: s.recording, streaming: s.streaming, danmakuConnected: s.danmakuConnected });
      }
    }
    this.changed();
  }

  private addLogs(entries: LogEntry[]): void {
    const last = this.logs.at(-1)?.id ?? 0;
    for (const e of entries) if (e.id > last) this.logs.push(e);
    if (this.logs.length > MAX_LOGS) this.logs.splice(0, this.logs.length - MAX_LOGS);
    this.changed();
  }
}

export const store = new Store();

/** Re-renders the component whenever the store changes (at most once per animation frame). */
export function useStore(): Store {
  const [, setTick] = useState(0);
  useEffect(() => store.subscribe(() => setTick((t) => t + 1)), []);
  return store;
}
