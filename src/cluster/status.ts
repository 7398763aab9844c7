// The latest room snapshot per room, written by its owner; fenced by the lease epoch so a deposed owner cannot overwrite.
import type { Db } from './db.js';

export interface StatusEntry {
  roomId: number;
  epoch: number;
  recording: boolean;
  dto: unknown;
}

export async function publishStatus(db: Db, nodeId: string, entries: StatusEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db.query(
    `INSERT INTO liverec_room_status (room_id, node_id, epoch, updated_at, recording, dto)
     SELECT s.room_id, $1, s.epoch, now(), s.recording, s.dto
     FROM unnest($2::bigint[], $3::bigint[], $4::boolean[], $5::jsonb[]) AS s(room_id, epoch, recording, dto)
     JOIN liverec_leases l ON l.room_id = s.room_id AND l.node_id = $1 AND l.epoch = s.epoch
     ON CONFLICT (room_id) DO UPDATE SET node_id = EXCLUDED.node_id, epoch = EXCLUDED.epoch, updated_at = now(),
       recording = EXCLUDED.recording, dto = EXCLUDED.dto
     WHERE liverec_room_status.epoch <= EXCLUDED.epoch`,
    [nodeId, entries.map((e) => e.roomId), entries.map((e) => e.epoch), entries.map((e) => e.recording), entries.map((e) => JSON.stringify(e.dto))],
  );
}

export interface SharedRoomRow {
  roomId: number;
  config: Record<string, unknown>;
  owner: string | null;
  ownerAdvertise: string | null;
  dto: Record<string, unknown> | null;
}

/** Every room with its live owner (if any) and the owner's latest snapshot. */
export async function readSharedRooms(db: Db): Promise<SharedRoomRow[]> {
  const { rows } = await db.query<{ room_id: string; config: Record<string, unknown>; owner: string | null; advertise: string | null; dto: Record<string, unknown> | null }>(
    `SELECT r.room_id, r.config, l.node_id AS owner, n.advertise, s.dto
     FROM liverec_rooms r
     LEFT JOIN liverec_leases l ON l.room_id = r.room_id AND l.expires_at > now()
     LEFT JOIN liverec_nodes n ON n.node_id = l.node_id
     LEFT JOIN liverec_room_status s ON s.room_id = r.room_id
     ORDER BY r.added_at, r.room_id`,
  );
  return rows.map((r) => ({ roomId: Number(r.room_id), config: r.config, owner: r.owner, ownerAdvertise: r.advertise, dto: r.dto }));
}
