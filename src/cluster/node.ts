// One cluster member: heartbeats, lease renewal with self-fencing, placement, and the local recorder kept to its leases.
import { roomDto } from '../api/room-dto.js';
import { ConfigStore } from '../config/store.js';
import { logger } from '../log/logger.js';
import type { Recorder } from '../rooms/recorder.js';
import type { Db } from './db.js';
import { claimLease, heartbeat, leaveCluster, type NodeIdentity, readSnapshot, releaseLease, renewLeases } from './leases.js';
import { planFor } from './placement.js';
import { GlobalSync } from './global-sync.js';
import { publishStatus } from './status.js';
import { ClusterDetector } from './cluster-detector.js';
import { ClusterBudget } from './cluster-budget.js';
import { getProcessLimiter } from '../bilibili/api-limiter.js';

export interface ClusterTimings {
  /** Lease lifetime (database clock). */
  ttlMs: number;
  /** Heartbeat, renewal and placement period. */
  tickMs: number;
  /** A node claims nothing until it has been registered this long, so nodes started together see each other. */
  joinMs: number;
}

/** How long a newly held room is left alone before rebalancing may give it away. */
const SETTLE_MS = 15_000;

export const DEFAULT_TIMINGS: ClusterTimings = { ttlMs: 12_000, tickMs: 1000, joinMs: 3000 };

export class ClusterNode {
  /**
   * Rooms this node runs: the lease's fencing epoch, when the last successful claim/renewal covering it was sent
   * (fencing counts from there) and when the claim was confirmed (a renewal sent before that proves nothing).
   */
  private readonly held = new Map<number, { epoch: number; sentAt: number; confirmedAt: number }>();
  private recorder: Recorder | null = null;
  private sync: GlobalSync | null = null;
  /** The cluster's one live detector (runs here while this node holds its lease) and its one API budget. */
  detector: ClusterDetector | null = null;
  private budget: ClusterBudget | null = null;
  private timers: NodeJS.Timeout[] = [];
  private registeredAt = 0;
  private lastStatus = 0;
  private stopped = false;
  private readonly log;

  private readonly inFlight = new Set<Promise<void>>();
  /** The latest queued local start/stop of each room. */
  private readonly ops = new Map<number, Promise<void>>();

  /** `leaseDb` carries only heartbeats and renewals; `db` everything else. */
  constructor(readonly db: Db, private readonly leaseDb: Db, readonly identity: NodeIdentity, readonly timings: ClusterTimings = DEFAULT_TIMINGS) {
    this.log = logger().child({ node: identity.nodeId });
  }

  /** Holds a lease for `roomId` right now (the API forwards commands for other rooms to their owner). */
  owns(roomId: number): boolean {
    return this.held.has(roomId);
  }

  async start(recorder: Recorder): Promise<void> {
    this.recorder = recorder;
    this.sync = new GlobalSync(this.db, recorder);
    await heartbeat(this.db, this.identity, true);
    this.registeredAt = performance.now();
    this.log.info({ advertise: this.identity.advertise, maxRooms: this.identity.maxRooms }, 'joined the cluster');
    this.timers.push(setInterval(() => this.fenceIfStale(), Math.max(100, this.timings.tickMs / 4)));
    this.budget = new ClusterBudget(this.db, getProcessLimiter(), () => recorder.config.effective('ApiBudgetPerMinute'));
    this.budget.start();
    this.detector = new ClusterDetector(this.db, this.identity.nodeId, recorder, this.timings.ttlMs);
    this.detector.start();
    this.loop(() => this.detector!.step());
    // Renewal runs on its own loop so that slow placement work (many claims, room starts) never delays it.
    this.loop(() => this.renew());
    this.loop(() => this.placeAndPublish());
  }

  /** Graceful leave: rooms closed first, then every lease freed so the others take over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timers.forEach((t) => clearTimeout(t));
    // A step stuck on a slow database must not eat the 5-s stop budget; anything it claims late is freed below or expires.
    await Promise.race([Promise.all([...this.inFlight]), new Promise((r) => setTimeout(r, 1000))]);
    // The detector first, so another node takes it over at once.
    await this.detector?.stop();
    await this.stopRooms([...this.held.keys()], 'leaving the cluster');
    await leaveCluster(this.leaseDb, this.identity.nodeId).catch((err: unknown) => this.log.warn({ err }, 'could not free leases; they expire'));
    this.budget?.stop();
  }

  private loop(step: () => Promise<void>): void {
    const run = (): void => {
      if (this.stopped) return;
      const p = step()
        .catch((err: unknown) => this.log.warn({ err: { message: (err as Error).message, code: (err as { code?: string }).code } }, 'cluster database unreachable'))
        .finally(() => {
          this.inFlight.delete(p);
          if (!this.stopped) this.timers.push(setTimeout(run, this.timings.tickMs));
        });
      this.inFlight.add(p);
    };
    run();
  }

  private async renew(): Promise<void> {
    const sent = performance.now();
    await heartbeat(this.leaseDb, this.identity, false);
    const renewed = await renewLeases(this.leaseDb, this.identity.nodeId, this.timings.ttlMs);
    // A room claimed after this renewal was sent is not in its answer, and is not lost.
    const lost = [...this.held].filter(([id, h]) => !renewed.has(id) && h.confirmedAt < sent).map(([id]) => id);
    if (lost.length) await this.stopRooms(lost, 'lease lost');
    for (const [roomId, epoch] of renewed) {
      const h = this.held.get(roomId);
      if (h) h.sentAt = Math.max(h.sentAt, sent);
      else if (!this.stopped) this.startRoom(roomId, epoch, sent); // a lease of this node's previous run
    }
  }

  private async placeAndPublish(): Promise<void> {
    await this.sync!.pull();
    if (performance.now() - this.registeredAt >= this.timings.joinMs) await this.place();
    if (performance.now() - this.lastStatus >= 2000) {
      this.lastStatus = performance.now();
      await publishStatus(this.db, this.identity.nodeId, this.statusEntries());
    }
  }

  /** Self-fencing: stop a room well before a lease we could not renew can expire and be taken by another node. */
  private fenceIfStale(): void {
    const now = performance.now();
    const stale = [...this.held].filter(([, h]) => now - h.sentAt >= this.timings.ttlMs / 2).map(([id]) => id);
    if (stale.length === 0) return;
    this.log.error({ rooms: stale }, 'lease renewal failing: stopping these rooms before their leases expire');
    void this.stopRooms(stale, 'fenced');
  }

  private async place(): Promise<void> {
    const snap = await readSnapshot(this.db, this.timings.ttlMs);
    const plan = planFor(this.identity.nodeId, snap);
    for (const roomId of plan.release) {
      const h = this.held.get(roomId);
      // The snapshot's recording flags lag by up to one status period: give away only rooms that have settled
      // and are idle here, never one whose session is starting (its stop could outlast the lease hand-over).
      const room = this.recorder!.rooms.find((r) => r.roomId === roomId);
      if (!h || performance.now() - h.confirmedAt < SETTLE_MS || room?.state.streaming || room?.state.recording) continue;
      await this.stopRooms([roomId], 'rebalanced');
      await releaseLease(this.db, this.identity.nodeId, roomId, h.epoch);
    }
    for (const roomId of plan.claim) {
      if (this.stopped) return;
      const sent = performance.now();
      const epoch = await claimLease(this.db, this.identity.nodeId, roomId, this.timings.ttlMs);
      if (epoch !== null) this.startRoom(roomId, epoch, sent);
    }
  }

  /** Records a leased room from now on (idempotent: a claim and a renewal may both report the same lease). */
  private startRoom(roomId: number, epoch: number, sentAt: number): void {
    if (this.stopped || this.held.get(roomId)?.epoch === epoch) return;
    this.held.set(roomId, { epoch, sentAt, confirmedAt: performance.now() });
    this.syncRoom(roomId);
  }

  private async stopRooms(roomIds: number[], reason: string): Promise<void> {
    await Promise.all(roomIds.map((roomId) => {
      if (!this.held.delete(roomId)) return this.ops.get(roomId);
      this.log.info({ roomId, reason }, 'room released by this node');
      return this.syncRoom(roomId);
    }));
  }

  /**
   * Brings the local recorder in line with `held` for one room. Calls for a room run one after another, so racing
   * triggers (claim, renewal, fencing, loss) can never start two actors or remove the wrong one.
   */
  private syncRoom(roomId: number): Promise<void> {
    const next = (this.ops.get(roomId) ?? Promise.resolve()).then(async () => {
      const want = this.held.get(roomId);
      const room = this.recorder!.rooms.find((r) => r.roomId === roomId);
      if (!want && room) {
        this.sync?.untrack(roomId);
        await this.recorder!.removeRoom(room);
      } else if (want && !room && !this.stopped) {
        const { rows } = await this.db.query<{ config: Record<string, unknown> }>('SELECT config FROM liverec_rooms WHERE room_id = $1', [roomId]);
        if (!rows[0] || this.held.get(roomId) !== want) return;
        const entry = ConfigStore.fromText(JSON.stringify({ version: 3, rooms: [rows[0].config] }), `cluster room ${roomId}`).rooms[0]!;
        this.sync!.track(roomId, rows[0].config);
        this.log.info({ roomId, epoch: want.epoch }, 'room leased: recording it on this node');
        await this.recorder!.adoptRoom(entry);
      }
    }).catch((err: unknown) => {
      this.log.warn({ roomId, err }, 'could not bring the room in line with its lease');
    }).finally(() => {
      if (this.ops.get(roomId) === next) this.ops.delete(roomId);
      // Fenced or lost while starting: run once more so the room does not keep recording.
      const want = this.held.get(roomId);
      const running = this.recorder!.rooms.some((r) => r.roomId === roomId);
      if (Boolean(want) !== running && !(this.stopped && !running)) void this.syncRoom(roomId);
    });
    this.ops.set(roomId, next);
    return next;
  }

  private statusEntries() {
    const out: { roomId: number; epoch: number; recording: boolean; dto: unknown }[] = [];
    for (const [roomId, { epoch }] of this.held) {
      const room = this.recorder?.rooms.find((r) => r.roomId === roomId);
      if (room) out.push({ roomId, epoch, recording: room.state.recording, dto: roomDto(room) });
    }
    return out;
  }
}
