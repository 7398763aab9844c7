// One live detector for the whole cluster: the node holding the `detector` lease checks every room in batches and
// writes what changed to liverec_detected; every node hands the changes of the rooms it holds to their actors.
import { join } from 'node:path';
import { BilibiliApiClient } from '../bilibili/api-client.js';
import { getProcessLimiter } from '../bilibili/api-limiter.js';
import type { BatchRoomStatus } from '../bilibili/batch-status.js';
import { RoomDetection } from '../detect/room-detection.js';
import { logger } from '../log/logger.js';
import { clientOptionsFrom } from '../rooms/client-settings.js';
import { initialRoomState, type RoomState } from '../rooms/protocol.js';
import type { Recorder } from '../rooms/recorder.js';
import type { Db } from './db.js';
import { claimSingleton, releaseSingleton, renewSingleton } from './singleton.js';

/** How often the holder reads the cluster's room list (rooms added or removed on any node). */
const ROOMS_READ_MS = 5000;
/** How often a node hands its rooms' latest statuses to them again (a live room whose actor is not streaming retries). */
const REAPPLY_MS = 6000;

type HeldRoom = { roomId: number; state: RoomState; disposed?: boolean };

function stateOf(s: BatchRoomStatus | null): RoomState {
  const state = initialRoomState();
  if (!s) return state;
  return { ...state, uid: s.uid, shortId: s.shortId, streaming: s.liveStatus === 1, title: s.title, name: s.uname, areaNameChild: s.areaName, areaNameParent: s.parentAreaName };
}

export class ClusterDetector {
  /** While this node holds the detector lease: its epoch, when the last good renewal was sent, the detection itself. */
  private holding: { epoch: number; sentAt: number; detection: RoomDetection } | null = null;
  /** Holder: every room of the cluster as last written (the detection's filter writes only what changed). */
  private rooms: HeldRoom[] = [];
  /** this.rooms by id, rebuilt lazily after the list is replaced (the detection looks rooms up per status). */
  private index: { of: HeldRoom[]; byId: Map<number, HeldRoom> } | null = null;
  private roomsReadAt = 0;
  private readonly pending = new Map<number, BatchRoomStatus>();
  private writing: Promise<void> = Promise.resolve();
  /** Every node: the latest status of every room, and the highest row sequence read. */
  private readonly latest = new Map<number, BatchRoomStatus>();
  private lastSeq = 0;
  private readonly handed = new Set<number>();
  private reappliedAt = 0;
  private fence: NodeJS.Timeout | null = null;
  private readonly log;

  constructor(private readonly db: Db, private readonly nodeId: string, private readonly recorder: Recorder,
    private readonly ttlMs: number) {
    this.log = logger().child({ node: nodeId });
  }

  /** True while this node runs the cluster's detector (tests, /api/cluster). */
  get holds(): boolean {
    return this.holding !== null;
  }

  start(): void {
    this.recorder.detection.useRemote();
    this.fence = setInterval(() => this.fenceIfStale(), Math.max(100, this.ttlMs / 4));
    this.fence.unref();
  }

  /** One tick of the node's loop: hold or claim the lease, keep the room list, hand new statuses to local rooms. */
  async step(): Promise<void> {
    await this.hold();
    if (this.holding && performance.now() - this.roomsReadAt >= ROOMS_READ_MS) await this.readRooms();
    await this.apply();
  }

  async stop(): Promise<void> {
    if (this.fence) clearInterval(this.fence);
    this.drop('leaving the cluster');
    await this.writing;
    await releaseSingleton(this.db, 'detector', this.nodeId).catch(() => undefined);
  }

  private async hold(): Promise<void> {
    const sent = performance.now();
    if (this.holding) {
      if (await renewSingleton(this.db, 'detector', this.nodeId, this.holding.epoch, this.ttlMs)) {
        if (this.holding) this.holding.sentAt = sent;
      } else this.drop('detector lease lost');
      return;
    }
    const epoch = await claimSingleton(this.db, 'detector', this.nodeId, this.ttlMs);
    if (epoch === null) return;
    const { rows } = await this.db.query<{ room_id: string; status: BatchRoomStatus | null }>(
      'SELECT r.room_id, d.status FROM liverec_rooms r LEFT JOIN liverec_detected d USING (room_id) ORDER BY r.added_at, r.room_id',
    );
    this.rooms = rows.map((r) => ({ roomId: Number(r.room_id), state: stateOf(r.status) }));
    this.roomsReadAt = performance.now();
    const detection = new RoomDetection({
      workDir: join(this.recorder.workDir, '.liverec', 'cluster-detector'),
      config: this.recorder.config,
      rooms: () => this.rooms,
      room: (roomId) => this.roomById(roomId),
      observe: (list) => this.found(list),
      refresh: (roomId) => this.checkOne(roomId),
    });
    this.holding = { epoch, sentAt: sent, detection };
    this.log.info({ epoch, rooms: this.rooms.length }, 'this node now runs the cluster\'s live detector');
    detection.start();
  }

  /** Self-fencing: a holder that cannot renew stops calling well before another node may take over. */
  private fenceIfStale(): void {
    if (this.holding && performance.now() - this.holding.sentAt >= this.ttlMs / 2) this.drop('detector lease renewal failing');
  }

  private drop(reason: string): void {
    if (!this.holding) return;
    this.holding.detection.stop();
    this.holding = null;
    this.log.warn({ reason }, 'this node stopped running the cluster\'s live detector');
  }

  private async readRooms(): Promise<void> {
    const { rows } = await this.db.query<{ room_id: string }>('SELECT room_id FROM liverec_rooms ORDER BY added_at, room_id');
    this.roomsReadAt = performance.now();
    const old = new Map(this.rooms.map((r) => [r.roomId, r]));
    this.rooms = rows.map((r) => {
      const id = Number(r.room_id);
      const room = old.get(id);
      if (!room) this.holding?.detection.added(id);
      return room ?? { roomId: id, state: initialRoomState() };
    });
    for (const [id, r] of old) if (!this.rooms.includes(r)) { r.disposed = true; this.pending.delete(id); }
  }

  private roomById(roomId: number): HeldRoom | undefined {
    if (this.index?.of !== this.rooms) this.index = { of: this.rooms, byId: new Map(this.rooms.map((r) => [r.roomId, r])) };
    return this.index.byId.get(roomId);
  }

  /** The detection found changes: they become the rooms' state here and rows for their owners. */
  private found(list: { roomId: number; status: BatchRoomStatus }[]): void {
    for (const { roomId, status } of list) {
      const room = this.roomById(roomId);
      if (!room) continue;
      room.state = stateOf(status);
      this.pending.set(roomId, status);
    }
    this.writing = this.writing.then(() => this.write()).catch((err: unknown) => {
      this.log.warn({ err: (err as Error).message }, 'could not write live statuses; they are written with the next change');
    });
  }

  /** Writes the pending statuses, fenced: a holder that lost the lease writes nothing. */
  private async write(): Promise<void> {
    if (this.pending.size === 0 || !this.holding) return;
    const list = [...this.pending];
    this.pending.clear();
    await this.db.query(
      `INSERT INTO liverec_detected (room_id, seq, status, updated_at)
       SELECT s.room_id, nextval('liverec_detect_seq'), s.status, now()
       FROM unnest($3::bigint[], $4::jsonb[]) AS s(room_id, status)
       WHERE EXISTS (SELECT 1 FROM liverec_singletons WHERE name = 'detector' AND node_id = $1 AND epoch = $2 AND expires_at > now())
         AND EXISTS (SELECT 1 FROM liverec_rooms r WHERE r.room_id = s.room_id)
       ON CONFLICT (room_id) DO UPDATE SET seq = EXCLUDED.seq, status = EXCLUDED.status, updated_at = EXCLUDED.updated_at`,
      [this.nodeId, this.holding.epoch, list.map(([id]) => id), list.map(([, s]) => JSON.stringify(s))],
    );
  }

  /** The batch endpoint failed for this room: one getInfoByRoom, through the cluster's budget like every call. */
  private async checkOne(roomId: number): Promise<void> {
    const settings = this.recorder.config.resolveRoom({ roomId: 0, autoRecord: false, overrides: {}, extra: {} });
    const info = await new BilibiliApiClient(clientOptionsFrom(settings), getProcessLimiter()).getRoomInfo(roomId);
    const status: BatchRoomStatus = { uid: info.uid, roomId: info.roomId, shortId: info.shortId, liveStatus: info.liveStatus,
      liveTime: info.liveStartTime, title: info.title, uname: info.anchorName, areaName: info.areaName, parentAreaName: info.parentAreaName };
    this.found([{ roomId, status }]);
  }

  /** Every node: new rows are handed to the rooms held here at once; all of them again every REAPPLY_MS. */
  private async apply(): Promise<void> {
    const { rows } = await this.db.query<{ room_id: string; seq: string; status: BatchRoomStatus }>(
      'SELECT room_id, seq, status FROM liverec_detected WHERE seq > $1 ORDER BY seq', [this.lastSeq],
    );
    const fresh: { roomId: number; status: BatchRoomStatus }[] = [];
    for (const r of rows) {
      const roomId = Number(r.room_id);
      this.lastSeq = Math.max(this.lastSeq, Number(r.seq));
      this.latest.set(roomId, r.status);
      fresh.push({ roomId, status: r.status });
    }
    const local = this.recorder.rooms;
    const now = performance.now();
    const all = now - this.reappliedAt >= REAPPLY_MS;
    if (all) {
      this.reappliedAt = now;
      this.handed.clear();
    }
    // Rooms this node took over since the last tick get their room's latest status now, not at the next re-apply.
    const out = all ? [] : fresh;
    const inFresh = new Set(out.map((f) => f.roomId));
    for (const room of local) {
      if (this.handed.has(room.roomId)) continue;
      this.handed.add(room.roomId);
      const status = this.latest.get(room.roomId);
      if (status && !inFresh.has(room.roomId)) out.push({ roomId: room.roomId, status });
    }
    if (out.length) this.recorder.detection.report(out);
  }
}
