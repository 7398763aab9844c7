// The event stream's hub: lifecycle events, room changes, throttled stats and log lines, fanned out to SSE clients.
import { randomUUID } from 'node:crypto';
import { getProcessLimiter } from '../../bilibili/api-limiter.js';
import type { RecorderEvent } from '../../events/types.js';
import { logRing } from '../../log/logger.js';
import type { Recorder } from '../../rooms/recorder.js';
import type { Room } from '../../rooms/room.js';
import { buildV2Payload } from '../../webhook/payload-v2.js';
import { roomDto, type RoomDto } from '../room-dto.js';
import { EventBuffer, type BufferedFrame } from './event-buffer.js';
import { roomHealth } from './room-health.js';
import { sseFrame } from './sse-frame.js';
import { CLIENT_QUEUE_BYTES, EventClient } from './event-client.js';
import { ANNOUNCED_FIELDS, statsEntry } from './room-snapshot.js';
import type { RoomChange } from '../../rooms/room-changes.js';

export interface EventHubOptions {
  /** Resumable frames kept for Last-Event-ID (default 2000). */
  bufferSize?: number;
  /** How often the rooms that changed are announced (default 250 ms). */
  watchMs?: number;
  /** How often stats snapshots are sent while clients are connected (default 1000 ms). */
  statsMs?: number;
}

const LEVELS_PROBLEM = new Set(['Warning', 'Error', 'Fatal']);

export class EventHub {
  readonly buffer: EventBuffer;
  private readonly clients = new Set<EventClient>();
  /** Rooms with an announced field changed since the last tick (the recorder's change feed; never a scan of every room). */
  private readonly dirty = new Set<Room>();
  private removed: { objectId: string; roomId: number }[] = [];
  /** The DTO made of each stats object (by identity), so frames of rooms that share one share its DTO. */
  private readonly statsDtos = new WeakMap<object, unknown>();
  private readonly problems = new Map<number, number>();
  private readonly offs: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastStats = 0;
  private lastPing = Date.now();

  constructor(private readonly recorder: Recorder, private readonly options: EventHubOptions = {}) {
    this.buffer = new EventBuffer(options.bufferSize ?? 2000);
  }

  /** Subscribes to the recorder and the log ring and starts watching rooms (idempotent). */
  start(): void {
    if (this.timer) return;
    this.offs.push(this.recorder.bus.on((e) => this.onLifecycle(e)));
    this.offs.push(logRing.onEntry((id, log) => this.onLog(id, log)));
    this.offs.push(this.recorder.changes.on((room, change) => this.onRoomChange(room, change)));
    this.timer = setInterval(() => this.tick(), this.options.watchMs ?? 250);
    this.timer.unref();
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.offs.splice(0).forEach((off) => off());
    for (const c of [...this.clients]) c.close();
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** Connects a client; replays from `lastEventId` when given (a `reset` frame says when that is no longer possible). */
  connect(options: { lastEventId: number | null; roomId: number | null }): ReadableStream<Uint8Array> {
    this.start();
    const client = new EventClient(options.roomId, () => this.clients.delete(client));
    const stream = client.open();
    client.send('retry: 3000\n\n');
    client.send(sseFrame('hello', { newestId: this.buffer.newestId, oldestId: this.buffer.oldestId }));
    if (options.lastEventId !== null) {
      const missed = this.buffer.after(options.lastEventId)?.filter((f) => client.wants(f)) ?? null;
      // The replay obeys the client's bound too: more than it may queue is a reset (the page reloads), never a pile-up.
      const bytes = missed?.reduce((n, f) => n + f.frame.length, 0) ?? 0;
      if (missed === null || bytes > CLIENT_QUEUE_BYTES) {
        client.send(sseFrame('reset', { reason: missed === null ? 'the requested events are no longer buffered' : 'too many events to replay', newestId: this.buffer.newestId }));
      } else for (const f of missed) client.offer(f, true);
    }
    this.clients.add(client);
    if (options.roomId !== null) this.sendRoomStats(client);
    return stream;
  }

  private publish(event: string, data: unknown, roomId: number | null): void {
    const entry: BufferedFrame = this.buffer.pushData(event, data, roomId);
    for (const c of this.clients) c.offer(entry);
  }

  private broadcast(frame: string, roomId: number | null): void {
    for (const c of this.clients) c.offer({ id: 0, frame, roomId });
  }

  /**
   * A comment of a room whose live preview is watched: only to that room's clients (`room=`), never buffered or
   * replayed (a reconnecting page does not need old comments on a live picture).
   */
  danmaku(d: { roomId: number; text: string; color: number; user: string }): void {
    if (this.clients.size === 0) return;
    const frame = sseFrame('danmaku', d);
    for (const c of this.clients) if (c.roomId === d.roomId) c.send(frame);
  }

  private onLifecycle(event: RecorderEvent): void {
    this.publish('lifecycle', buildV2Payload(event, randomUUID()), event.EventData.RoomId);
  }

  private onLog(id: number, log: Record<string, unknown>): void {
    const roomId = typeof log.RoomId === 'number' ? log.RoomId : null;
    if (roomId !== null && LEVELS_PROBLEM.has(String(log['@l']))) this.problems.set(roomId, Date.now());
    if (this.clients.size > 0) this.broadcast(sseFrame('log', { id, log }), roomId);
  }

  /** A room's DTO for a buffered frame: rooms with the same stats objects (every idle room) share their stats DTOs. */
  private roomData(room: Room): RoomDto {
    const dto = roomDto(room);
    const rec = this.statsDtos.get(room.recordingStats) as RoomDto['recordingStats'] | undefined;
    if (rec) dto.recordingStats = rec;
    else this.statsDtos.set(room.recordingStats, dto.recordingStats);
    const io = this.statsDtos.get(room.ioStats) as RoomDto['ioStats'] | undefined;
    if (io) dto.ioStats = io;
    else this.statsDtos.set(room.ioStats, dto.ioStats);
    return dto;
  }

  private onRoomChange(room: Room, change: RoomChange): void {
    if (change.kind === 'stats') return;
    if (change.kind === 'added') this.dirty.add(room);
    else if (change.kind === 'removed') {
      // Announced even when listed since the last tick: REST and GraphQL list a room at once, so a client may know it
      // from there (a page seeded by GET /api/room), and only this frame tells it the room is gone (issue 45).
      this.dirty.delete(room);
      this.removed.push({ objectId: room.objectId, roomId: room.roomId });
    } else if (change.keys.some((k) => ANNOUNCED_FIELDS.has(k))) this.dirty.add(room);
  }

  private tick(): void {
    const now = Date.now();
    for (const room of this.dirty) if (!room.disposed) this.publish('room', this.roomData(room), room.roomId);
    this.dirty.clear();
    for (const { objectId, roomId } of this.removed.splice(0)) {
      this.problems.delete(roomId);
      this.publish('room-removed', { objectId, roomId }, roomId);
    }
    if (this.clients.size > 0 && now - this.lastStats >= (this.options.statsMs ?? 1000)) {
      this.lastStats = now;
      this.sendStats(now);
    }
    if (now - this.lastPing >= 15_000) {
      this.lastPing = now;
      this.broadcast(': ping\n\n', null);
    }
  }

  /** Health inputs shared by every room of one snapshot. */
  health(room: Room, now = Date.now()): ReturnType<typeof roomHealth> {
    return roomHealth(room, { now, limiterPausedUntil: getProcessLimiter().pausedUntil(), lastProblemAt: this.problems.get(room.roomId) ?? 0 });
  }

  private sendStats(now: number): void {
    const pausedUntil = getProcessLimiter().pausedUntil();
    const rooms = this.recorder.rooms.map((r) => statsEntry(r, roomHealth(r, { now, limiterPausedUntil: pausedUntil, lastProblemAt: this.problems.get(r.roomId) ?? 0 })));
    // One string for every unfiltered client: 100 clients cost one JSON.stringify, not 100.
    const frame = sseFrame('stats', { time: now, limiterPausedUntil: pausedUntil > now ? pausedUntil : 0, rooms, api: this.recorder.detection.usage.usage(now) });
    for (const c of this.clients) {
      if (c.roomId === null) c.offer({ id: 0, frame, roomId: null });
      else this.sendRoomStats(c);
    }
  }

  /** Per-room subscribers get the room's full DTO (every recordingStats and ioStats field) instead. */
  private sendRoomStats(client: EventClient): void {
    const room = this.recorder.rooms.find((r) => r.roomId === client.roomId);
    if (room) client.offer({ id: 0, frame: sseFrame('room-stats', { ...roomDto(room), health: this.health(room) }), roomId: room.roomId });
  }
}
