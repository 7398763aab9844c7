// The room list and room resources as serialised JSON, rebuilt only for rooms that changed, with ETags for 304s.
import { createHash } from 'node:crypto';
import type { Room } from '../rooms/room.js';
import { roomDto } from './room-dto.js';

/*
 * Why per-room answers keyed by the room's version, not a timed snapshot: an answer must show a change the moment it
 * happened (a test or a client that POSTs /stop and then GETs must see it), yet 5000 idle rooms must not be
 * serialised again on every request. Every change to a room's mirror bumps `room.version` (autoRecord lives in the
 * config entry and is compared on its own). The whole list's body and ETag are reused while no room changed and
 * the list is the same, so between two stats ticks a list request costs one integer comparison per room.
 */
interface Entry {
  version: number;
  autoRecord: boolean;
  json: string;
  /** The same JSON as bytes, for the raw fast path (fast-room-get.ts). */
  bytes: Buffer;
  etag: string;
}

export interface ListPage {
  body: string;
  etag: string;
}

const etagOf = (text: string): string => `W/"${createHash('sha1').update(text).digest('base64url').slice(0, 22)}"`;

export class RoomSnapshots {
  private readonly cache = new WeakMap<Room, Entry>();
  private list: { rooms: Room[]; entries: Entry[]; page: ListPage; bytes: Buffer } | null = null;
  /** Room DTOs serialised (for tests and the benchmark: stays flat while nothing changes). */
  serialised = 0;

  /** The room's JSON and ETag, serialised again only when the room changed. */
  room(room: Room): Entry {
    const hit = this.cache.get(room);
    if (hit && hit.version === room.version && hit.autoRecord === room.autoRecord) return hit;
    this.serialised++;
    const json = JSON.stringify(roomDto(room));
    const entry: Entry = { version: room.version, autoRecord: room.autoRecord, json, bytes: Buffer.from(json), etag: etagOf(json) };
    this.cache.set(room, entry);
    return entry;
  }

  /** The whole list as one body (bytes too), rebuilt only when a room changed or the list did. */
  whole(rooms: readonly Room[]): { page: ListPage; bytes: Buffer } {
    const prev = this.list;
    if (prev && prev.rooms.length === rooms.length) {
      let same = true;
      for (let i = 0; i < rooms.length; i++) {
        const r = rooms[i]!;
        const e = prev.entries[i]!;
        if (prev.rooms[i] !== r || e.version !== r.version || e.autoRecord !== r.autoRecord) {
          same = false;
          break;
        }
      }
      if (same) return prev;
    }
    const entries = rooms.map((r) => this.room(r));
    const body = `[${entries.map((e) => e.json).join(',')}]`;
    this.list = { rooms: [...rooms], entries, page: { body, etag: etagOf(body) }, bytes: Buffer.from(body) };
    return this.list;
  }

  /** The list (optionally only recording rooms, optionally one page), as a JSON array body with its ETag. */
  page(rooms: readonly Room[], opts: { recording?: boolean; page?: number; limit?: number } = {}): ListPage {
    if (opts.recording === undefined && opts.limit === undefined && opts.page === undefined) return this.whole(rooms).page;
    const jsons = rooms.map((r) => this.room(r).json);
    let picked = jsons;
    if (opts.recording !== undefined) picked = jsons.filter((_, i) => rooms[i]!.state.recording === opts.recording);
    if (opts.limit !== undefined || opts.page !== undefined) {
      const limit = opts.limit ?? 100;
      const start = ((opts.page ?? 1) - 1) * limit;
      picked = picked.slice(start, start + limit);
    }
    const body = `[${picked.join(',')}]`;
    return { body, etag: etagOf(body) };
  }
}

/** True when the request's If-None-Match names this ETag (or `*`). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const weak = (t: string): string => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || weak(t) === weak(etag));
}
