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

export interface ClusterTimings {
  /** Lease lifetime (database clock). */
  ttlMs: number;
  /** Heartbeat, renewal and placement period. */
  tickMs: number;
  /** A node claims nothing until it has been registered this long, so nodes started together see each other. */
  joinMs: number;
}

export const DEFAULT_TIMINGS: ClusterTimings = { ttlMs: 12_000, tickMs: 1000, joinMs: 3000 };

export class ClusterNode {
  /**
   * Rooms this node runs: the lease's fencing epoch, when the last successful claim/renewal covering it was sent
   * (fencing counts from there) and when the claim was confirmed (a renewal sent before that proves nothing).
   */
  private readonly held = new Map<number, { epoch: number; sentAt: number; confirmedAt: number }>();
  private recorder: Recorder | null = null;
  private sync: GlobalSync | null = null;
  private timers: NodeJS.Timeout[] = [];
  private registeredAt = 0;
  private lastStatus = 0;
  private stopped = false;
  private readonly log;

  private readonly inFlight = new Set<Promise<void>>();

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
    // Renewal runs on its own loop so that slow placement work (many claims, room starts) never delays it.
    this.loop(() => this.renew());
    this.loop(() => this.placeAndPublish());
  }

  /** Graceful leave: rooms closed first, then every lease freed so the others take over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timers.forEach((t) => clearTimeout(t));
    await Promise.all([...this.inFlight]);
    await this.stopRooms([...this.held.keys()], 'leaving the cluster');
    await leaveCluster(this.db, this.identity.nodeId).catch((err: unknown) => this.log.warn({ err }, 'could not free leases; they expire'));
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
      if (!h) continue;
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

  /** Starts recording a leased room; the room's settings are read fresh from the database. */
  private startRoom(roomId: number, epoch: number, sentAt: number): void {
    // A claim and a renewal can both report the same new lease; the room starts once.
    if (this.held.get(roomId)?.epoch === epoch) return;
    if (this.held.has(roomId)) void this.stopRooms([roomId], 'lease replaced');
    this.held.set(roomId, { epoch, sentAt, confirmedAt: performance.now() });
    void (async () => {
      const { rows } = await this.db.query<{ config: Record<string, unknown> }>('SELECT config FROM liverec_rooms WHERE room_id = $1', [roomId]);
      if (!rows[0] || this.held.get(roomId)?.epoch !== epoch) return;
      const entry = ConfigStore.fromText(JSON.stringify({ version: 3, rooms: [rows[0].config] }), `cluster room ${roomId}`).rooms[0]!;
      this.sync!.track(roomId, rows[0].config);
      this.log.info({ roomId, epoch }, 'room leased: recording it on this node');
      const room = await this.recorder!.adoptRoom(entry);
      // Fenced, lost or stopped while the room was starting: it must not go on recording.
      if (this.held.get(roomId)?.epoch !== epoch) await this.recorder!.removeRoom(room);
    })().catch((err: unknown) => {
      this.log.warn({ roomId, err }, 'could not start a leased room; releasing it');
      this.held.delete(roomId);
      void releaseLease(this.db, this.identity.nodeId, roomId, epoch).catch(() => undefined);
    });
  }

  private async stopRooms(roomIds: number[], reason: string): Promise<void> {
    await Promise.all(roomIds.map(async (roomId) => {
      if (!this.held.delete(roomId)) return;
      this.sync?.untrack(roomId);
      this.log.info({ roomId, reason }, 'room released by this node');
      const room = this.recorder?.rooms.find((r) => r.roomId === roomId);
      if (room) await this.recorder!.removeRoom(room).catch((err: unknown) => this.log.warn({ roomId, err }, 'stopping the room failed'));
    }));
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
