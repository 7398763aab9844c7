// Node heartbeats and room leases in SQL. Every expiry is judged by the database's clock, never a node's.
import type { Db } from './db.js';

export interface NodeRow {
  nodeId: string;
  advertise: string | null;
  maxRooms: number;
  startedAt: string;
  heartbeatAt: string;
  /** Heartbeat within the lease TTL and not left. */
  alive: boolean;
}

export interface LeaseRow {
  roomId: number;
  nodeId: string;
  epoch: number;
  /** Not yet expired (database time). */
  live: boolean;
}

export interface ClusterSnapshot {
  nodes: NodeRow[];
  rooms: number[];
  leases: Map<number, LeaseRow>;
  recording: Set<number>;
}

export interface NodeIdentity {
  nodeId: string;
  advertise: string | null;
  maxRooms: number;
}

export async function heartbeat(db: Db, node: NodeIdentity, first: boolean): Promise<void> {
  await db.query(
    `INSERT INTO liverec_nodes (node_id, advertise, max_rooms, started_at, heartbeat_at, left_at) VALUES ($1, $2, $3, now(), now(), NULL)
     ON CONFLICT (node_id) DO UPDATE SET advertise = EXCLUDED.advertise, max_rooms = EXCLUDED.max_rooms, heartbeat_at = now(), left_at = NULL,
       started_at = CASE WHEN $4 THEN now() ELSE liverec_nodes.started_at END`,
    [node.nodeId, node.advertise, node.maxRooms, first],
  );
}

/** Extends this node's unexpired leases; an expired lease is never revived (another node may own the room by now). */
export async function renewLeases(db: Db, nodeId: string, ttlMs: number): Promise<Map<number, number>> {
  const { rows } = await db.query<{ room_id: string; epoch: string }>(
    `UPDATE liverec_leases SET expires_at = now() + $2 * interval '1 millisecond'
     WHERE node_id = $1 AND expires_at > now() RETURNING room_id, epoch`,
    [nodeId, ttlMs],
  );
  return new Map(rows.map((r) => [Number(r.room_id), Number(r.epoch)]));
}

/** Takes a free or expired lease with a new fencing epoch; null when another node holds it or the room is gone. */
export async function claimLease(db: Db, nodeId: string, roomId: number, ttlMs: number): Promise<number | null> {
  try {
    const { rows } = await db.query<{ epoch: string }>(
      `INSERT INTO liverec_leases (room_id, node_id, epoch, expires_at) VALUES ($1, $2, nextval('liverec_epoch'), now() + $3 * interval '1 millisecond')
       ON CONFLICT (room_id) DO UPDATE SET node_id = EXCLUDED.node_id, epoch = EXCLUDED.epoch, expires_at = EXCLUDED.expires_at
       WHERE liverec_leases.expires_at <= now() RETURNING epoch`,
      [roomId, nodeId, ttlMs],
    );
    return rows[0] ? Number(rows[0].epoch) : null;
  } catch (err) {
    if ((err as { code?: string }).code === '23503') return null; // the room was deleted meanwhile
    throw err;
  }
}

export async function releaseLease(db: Db, nodeId: string, roomId: number, epoch: number): Promise<void> {
  await db.query('DELETE FROM liverec_leases WHERE room_id = $1 AND node_id = $2 AND epoch = $3', [roomId, nodeId, epoch]);
}

/** Graceful exit: every lease of this node is freed at once, so the others take over without waiting for expiry. */
export async function leaveCluster(db: Db, nodeId: string): Promise<void> {
  await db.query('DELETE FROM liverec_leases WHERE node_id = $1', [nodeId]);
  await db.query('UPDATE liverec_nodes SET left_at = now() WHERE node_id = $1', [nodeId]);
}

export async function readNodes(db: Db, ttlMs: number): Promise<NodeRow[]> {
  const { rows } = await db.query<{ node_id: string; advertise: string | null; max_rooms: number; started_at: Date; heartbeat_at: Date; alive: boolean }>(
    `SELECT node_id, advertise, max_rooms, started_at, heartbeat_at,
       (left_at IS NULL AND heartbeat_at > now() - $1 * interval '1 millisecond') AS alive
     FROM liverec_nodes ORDER BY node_id`,
    [ttlMs],
  );
  return rows.map((r) => ({
    nodeId: r.node_id, advertise: r.advertise, maxRooms: r.max_rooms, alive: r.alive,
    startedAt: r.started_at.toISOString(), heartbeatAt: r.heartbeat_at.toISOString(),
  }));
}

export async function readSnapshot(db: Db, ttlMs: number): Promise<ClusterSnapshot> {
  const [nodes, rooms, leases, recording] = await Promise.all([
    readNodes(db, ttlMs),
    db.query<{ room_id: string }>('SELECT room_id FROM liverec_rooms ORDER BY room_id'),
    db.query<{ room_id: string; node_id: string; epoch: string; live: boolean }>('SELECT room_id, node_id, epoch, expires_at > now() AS live FROM liverec_leases'),
    db.query<{ room_id: string }>('SELECT room_id FROM liverec_room_status WHERE recording'),
  ]);
  return {
    nodes,
    rooms: rooms.rows.map((r) => Number(r.room_id)),
    leases: new Map(leases.rows.map((r) => [Number(r.room_id), { roomId: Number(r.room_id), nodeId: r.node_id, epoch: Number(r.epoch), live: r.live }])),
    recording: new Set(recording.rows.map((r) => Number(r.room_id))),
  };
}
