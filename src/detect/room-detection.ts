// The recorder's side of batch detection: which rooms to watch (uid known), what to tell their actors, the fallback.
import { BilibiliApiClient } from '../bilibili/api-client.js';
import { getProcessLimiter } from '../bilibili/api-limiter.js';
import type { BatchRoomStatus, RoomBaseInfo } from '../bilibili/batch-status.js';
import type { ClientTestSwitches } from '../bilibili/client-options.js';
import type { ConfigStore } from '../config/store.js';
import { logger } from '../log/logger.js';
import { clientOptionsFrom } from '../rooms/client-settings.js';
import type { RoomObservation, RoomState } from '../rooms/protocol.js';
import { BatchDetector } from './batch-detector.js';
import { UidCache } from './uid-cache.js';
import { ApiUsageSampler } from './api-usage.js';

export interface DetectionDeps {
  workDir: string;
  config: ConfigStore;
  /** The rooms as the recorder mirrors them. */
  rooms: () => ReadonlyArray<{ roomId: number; state: RoomState; disposed?: boolean }>;
  /** One room by id (a map: answers for 500 rooms are mapped a call). */
  room: (roomId: number) => { state: RoomState; disposed?: boolean } | undefined;
  observe: (observations: RoomObservation[]) => void;
  /** The per-room check (getInfoByRoom) used while the batch endpoint fails. */
  refresh: (roomId: number) => Promise<void>;
  /** Test-only (see ClientTestSwitches). */
  clientTestSwitches?: ClientTestSwitches;
}

/** Per-room fallback checks in flight at most: the rest wait in the queue, taken in turn as the API budget allows. */
const FALLBACK_CONCURRENCY = 3;

/** What detection knows of one listed room: created when the room is added, deleted when it is removed (never orphaned). */
interface DetectRecord {
  /** When getRoomBaseInfo last tried to learn its uid (epoch ms; 0 = never). */
  learnTriedAt: number;
  /** When its last per-room fallback check began (epoch ms; 0 = never). */
  checkedAt: number;
}
/** Room ids per getRoomBaseInfo call. */
const LEARN_BATCH = 500;

export class RoomDetection {
  readonly uids: UidCache;
  readonly detector: BatchDetector;
  /** The process's budget use, for /metrics and the UI. */
  readonly usage = new ApiUsageSampler();
  /** Per-room fallback checks made (batch endpoint failing). */
  fallbackChecks = 0;
  /** One record per listed room: the single source of truth a remove deletes and a re-add recreates. */
  private readonly records = new Map<number, DetectRecord>();
  /** Rooms waiting for a per-room check, in turn (round robin: a room checked again queues at the back). */
  private readonly queue = new Set<number>();
  private readonly inFlight = new Set<number>();
  private pending: RoomObservation[] = [];
  /** The live_time of each live room's stream as the batch last answered it. */
  private readonly liveTimes = new Map<number, number>();

  constructor(private readonly deps: DetectionDeps) {
    this.uids = new UidCache(deps.workDir);
    this.detector = new BatchDetector({
      fetch: (uids) => this.client().getStatusByUids(uids),
      rooms: () => this.watched(),
      onStatus: (roomId, status) => this.onStatus(roomId, status),
      onBatchFailed: (roomIds, err) => this.fallback(roomIds, err),
      intervalMs: () => Math.max(5, deps.config.effective('TimingCheckInterval')) * 1000,
      learn: () => this.learnUids(),
    });
  }

  /** The uid to hand a starting actor (so it calls nothing until the detector reports the room). */
  uidOf(roomId: number, state?: RoomState): number | undefined {
    return (state?.uid || undefined) ?? this.uids.get(roomId);
  }

  start(): void {
    this.stopped = false;
    if (this.started || this.remote) return;
    this.started = true;
    this.usage.start();
    for (const r of this.deps.rooms()) this.detector.watch(r.roomId);
    this.detector.start();
  }

  private started = false;
  /** Cluster mode: one detector for the whole cluster reports through report(); this one never calls. */
  private remote = false;

  /** Cluster mode: stops this process's detector for good; statuses arrive through report() instead. */
  useRemote(): void {
    this.remote = true;
    this.detector.stop();
  }

  /** Statuses found by the cluster's detector for rooms of this process: only changes reach the actors, as with ours. */
  report(list: readonly { roomId: number; status: BatchRoomStatus }[]): void {
    for (const o of list) {
      this.learned(o.roomId, o.status.uid, true);
      this.onStatus(o.roomId, o.status);
    }
  }

  /** A room was added, or an actor reported facts: learn its uid; a new room is checked with the next batch. */
  learned(roomId: number, uid: number | undefined, checked = false): void {
    if (!uid) return;
    const known = this.uids.get(roomId) === uid;
    this.uids.set(roomId, uid);
    const rec = this.records.get(roomId);
    if (rec) rec.learnTriedAt = 0;
    if (!known && !checked) this.detector.watch(roomId);
  }

  added(roomId: number): void {
    this.records.set(roomId, { learnTriedAt: 0, checkedAt: 0 });
    this.detector.watch(roomId);
    this.start(); // a cluster node adopts rooms without start()
  }

  /** The room left the list: everything detection kept about it goes (its uid stays: a fact about the service). */
  removed(roomId: number): void {
    this.records.delete(roomId);
    this.queue.delete(roomId);
    this.liveTimes.delete(roomId);
    this.detector.unwatch(roomId);
  }

  /** The room's record, made on first use for rooms listed before detection existed (config at start). */
  private record(roomId: number): DetectRecord {
    let rec = this.records.get(roomId);
    if (!rec) this.records.set(roomId, (rec = { learnTriedAt: 0, checkedAt: 0 }));
    return rec;
  }

  private stopped = false;

  stop(): void {
    this.stopped = true;
    this.queue.clear();
    this.detector.stop();
    this.usage.stop();
    this.uids.flush();
  }

  private client(): BilibiliApiClient {
    const settings = this.deps.config.resolveRoom({ roomId: 0, autoRecord: false, overrides: {}, extra: {} });
    return new BilibiliApiClient(clientOptionsFrom(settings, this.deps.clientTestSwitches), getProcessLimiter());
  }

  /**
   * Rooms without a uid learn it with getRoomBaseInfo, LEARN_BATCH rooms a call (one call per room would burst at
   * start). A room the answer leaves out (unknown, or the endpoint fails) is checked on its own: its actor's
   * getInfoByRoom finds the uid or the reason (notFound), at most once per TimingCheckInterval.
   */
  private async learnUids(): Promise<boolean> {
    const now = Date.now();
    const interval = Math.max(5, this.deps.config.effective('TimingCheckInterval')) * 1000;
    const todo: number[] = [];
    for (const r of this.deps.rooms()) {
      if (todo.length >= LEARN_BATCH) break;
      // A room with an unavailableReason (e.g. notFound) is checked by its own per-interval timer.
      if (r.disposed || this.uidOf(r.roomId, r.state) || r.state.unavailableReason) continue;
      if (now - this.record(r.roomId).learnTriedAt < interval) continue;
      todo.push(r.roomId);
    }
    if (todo.length === 0) return false;
    for (const id of todo) this.record(id).learnTriedAt = now;
    let found: RoomBaseInfo[] = [];
    try {
      found = await this.client().getRoomBaseInfo(todo);
    } catch (err) {
      this.fallback(todo, err as Error);
      return true;
    }
    const missed: number[] = [];
    for (const id of todo) {
      const info = found.find((f) => f.roomId === id);
      if (info) {
        // The answer carries the live flag too: it counts as the room's first check (no extra status call).
        this.learned(id, info.uid, true);
        if (!this.deps.room(id)) continue;
        this.detector.seen(id);
        this.onStatus(id, { uid: info.uid, roomId: info.roomId, shortId: info.shortId, liveStatus: info.liveStatus, liveTime: 0,
          title: info.title, uname: info.uname, areaName: info.areaName, parentAreaName: info.parentAreaName });
      } else missed.push(id); // unknown, or a short id: the actor's own check resolves it
    }
    if (missed.length) this.fallback(missed, new Error('not in the getRoomBaseInfo answer'), 'info');
    return true;
  }

  private watched(): { roomId: number; uid: number }[] {
    const out: { roomId: number; uid: number }[] = [];
    for (const r of this.deps.rooms()) {
      if (r.disposed) continue;
      const uid = this.uidOf(r.roomId, r.state);
      if (uid) out.push({ roomId: r.roomId, uid });
    }
    return out;
  }

  /** Only what changes the actor's view crosses to its thread: a live flip, or facts it does not have yet. */
  private onStatus(roomId: number, s: BatchRoomStatus): void {
    const room = this.deps.room(roomId);
    if (!room || room.disposed) return;
    const st = room.state;
    const live = s.liveStatus === 1;
    // A new live_time while live: the room went offline and live again between two rounds (a new stream).
    const seen = this.liveTimes.get(roomId);
    if (!live) this.liveTimes.delete(roomId);
    else if (s.liveTime > 0) this.liveTimes.set(roomId, s.liveTime);
    const restarted = live && s.liveTime > 0 && seen !== undefined && seen !== s.liveTime;
    const changed = live !== st.streaming || restarted || (s.title !== '' && s.title !== st.title) || (s.uname !== '' && s.uname !== st.name)
      || (s.areaName !== '' && s.areaName !== st.areaNameChild);
    if (!changed) return;
    if (this.pending.length === 0) queueMicrotask(() => this.flush());
    this.pending.push(restarted ? { roomId, status: s, newStream: true } : { roomId, status: s });
  }

  private flush(): void {
    const list = this.pending;
    this.pending = [];
    if (list.length) this.deps.observe(list);
  }

  /**
   * The batch call failed or left rooms out: every one of them is queued for a check of its own (each at most once
   * per TimingCheckInterval). The queue is worked FALLBACK_CONCURRENCY at a time, in turn, each check through the
   * process's API budget: no room is dropped because others were queued first.
   */
  private fallback(roomIds: number[], err: Error, level: 'warn' | 'info' = 'warn'): void {
    const now = Date.now();
    const interval = Math.max(5, this.deps.config.effective('TimingCheckInterval')) * 1000;
    let queued = 0;
    for (const id of roomIds) {
      const room = this.deps.room(id);
      if (!room || room.disposed || this.queue.has(id) || this.inFlight.has(id)) continue;
      if (now - this.record(id).checkedAt < interval) continue;
      this.queue.add(id);
      queued++;
    }
    if (queued > 0) logger()[level]({ err: err.message, rooms: queued, queued: this.queue.size }, 'batch check failed or left rooms out; checking these rooms one by one');
    this.pump();
  }

  private pump(): void {
    while (this.inFlight.size < FALLBACK_CONCURRENCY && this.queue.size > 0) {
      const id = this.queue.values().next().value as number;
      this.queue.delete(id);
      const room = this.deps.room(id);
      if (!room || room.disposed) continue;
      this.record(id).checkedAt = Date.now();
      this.inFlight.add(id);
      this.fallbackChecks++;
      void this.deps.refresh(id).catch(() => undefined).finally(() => {
        this.inFlight.delete(id);
        if (!this.stopped) this.pump();
      });
    }
  }
}
