// The cluster's rooms and global config in PostgreSQL, stored in brec's config v3 JSON shape (one object per room).
import { readFileSync } from 'node:fs';
import type { ConfigStore, RoomConfigEntry } from '../config/store.js';
import { ConfigStore as Store } from '../config/store.js';
import type { Db } from './db.js';

type Json = Record<string, unknown>;

/** The whole shared config as one store (validated like config.json; an invalid row is refused with its room id). */
export async function loadSharedConfig(db: Db): Promise<ConfigStore> {
  const [g, r] = await Promise.all([
    db.query<{ config: Json }>('SELECT config FROM liverec_global WHERE id = 1'),
    db.query<{ config: Json }>('SELECT config FROM liverec_rooms ORDER BY added_at, room_id'),
  ]);
  const file = { version: 3, global: g.rows[0]?.config ?? {}, rooms: r.rows.map((row) => row.config) };
  return Store.fromText(JSON.stringify(file), 'cluster database');
}

/** The brec JSON object of one room entry, as config.json would hold it. */
export function roomJson(store: ConfigStore, entry: RoomConfigEntry): Json {
  const index = store.rooms.indexOf(entry);
  const rooms = (store.toJSON().rooms as Json[]);
  return rooms[index] ?? { RoomId: { HasValue: true, Value: entry.roomId } };
}

export async function saveGlobal(db: Db, store: ConfigStore): Promise<void> {
  await db.query('UPDATE liverec_global SET config = $1 WHERE id = 1', [store.toJSON().global]);
}

/** Saves a room's settings; a room deleted meanwhile stays deleted. */
export async function saveRoom(db: Db, roomId: number, config: Json): Promise<void> {
  await db.query('UPDATE liverec_rooms SET config = $2 WHERE room_id = $1', [roomId, config]);
}

/** Adds a room; answers false when it was already there (its settings are kept). */
export async function addSharedRoom(db: Db, roomId: number, autoRecord: boolean): Promise<boolean> {
  const config = { RoomId: { HasValue: true, Value: roomId }, AutoRecord: autoRecord ? { HasValue: true, Value: true } : { HasValue: true } };
  const { rowCount } = await db.query('INSERT INTO liverec_rooms (room_id, config) VALUES ($1, $2) ON CONFLICT (room_id) DO NOTHING', [roomId, config]);
  return rowCount === 1;
}

/** Deletes a room; its lease goes with it, so its owner stops it at the next renewal. */
export async function removeSharedRoom(db: Db, roomId: number): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM liverec_rooms WHERE room_id = $1', [roomId]);
  await db.query("SELECT pg_notify('liverec_rooms', $1)", [String(roomId)]);
  return rowCount === 1;
}

/** `liverec cluster import`: config.json's global settings and rooms into the cluster (existing rooms are updated). */
export async function importConfigFile(db: Db, path: string): Promise<{ rooms: number }> {
  const store = Store.fromText(readFileSync(path, 'utf8'), path);
  const json = store.toJSON();
  await db.query('UPDATE liverec_global SET config = $1 WHERE id = 1', [json.global]);
  const rooms = json.rooms as Json[];
  for (const [i, entry] of store.rooms.entries()) {
    await db.query(
      'INSERT INTO liverec_rooms (room_id, config) VALUES ($1, $2) ON CONFLICT (room_id) DO UPDATE SET config = EXCLUDED.config',
      [entry.roomId, rooms[i]],
    );
  }
  return { rooms: store.rooms.length };
}
