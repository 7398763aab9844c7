// The room list and room resources as serialised JSON, rebuilt only for rooms that changed, with ETags for 304s.
import { createHash } from 'node:crypto';
import type { Room } from '../rooms/room.js';
import { ByteWriter } from './byte-writer.js';
import { roomJsonBytes, writeRoomJson } from './room-json.js';

/*
 * Why per-room answers keyed by the room's version, not a timed snapshot: an answer must show a change the moment it
 * happened (a test or a client that POSTs /stop and then GETs must see it), yet 5000 idle rooms must not be
 * serialised again on every request. Every change to a room's mirror bumps `room.version` (autoRecord lives in the
 * config entry and is compared on its own). The whole list's body and ETag are reused while no room changed and
 * the list is the same, so between two stats ticks a list request costs one integer comparison per room.
 *
 * Why the list keeps only where each room's JSON lies in its body: names and titles are mostly Chinese, so a room's
 * JSON is a two-byte string; holding 5000 of them (11 MB of heap) or 5000 small buffers made the first list answer
 * after start-up set off a major GC of 30–50 ms. A rebuild copies the unchanged rooms' bytes from the previous body
 * and writes only the changed rooms, into one new buffer; nothing else survives it.
 */

/** One room's answer alone: its bytes and ETag. */
interface Entry {
  version: number;
  autoRecord: boolean;
  bytes: Buffer;
  etag: string;
}

/** Where a room's JSON lies in the list's body, and which version of the room it is. */
interface Slot {
  room: Room;
  version: number;
  autoRecord: boolean;
  start: number;
  end: number;
}

export interface ListPage {
  body: Buffer;
  etag: string;
}

interface List {
  slots: Slot[];
  page: ListPage;
}

const etagOf = (bytes: Buffer): string => `W/"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;

const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]

const current = (s: Slot | undefined, r: Room): s is Slot => s !== undefined && s.room === r && s.version === r.version && s.autoRecord === r.autoRecord;

export class RoomSnapshots {
  private readonly cache = new WeakMap<Room, Entry>();
  private list: List | null = null;
  /** Room DTOs serialised (for tests and the benchmark: stays flat while nothing changes). */
  serialised = 0;

  /** The room's JSON bytes and ETag, serialised again only when the room changed. */
  room(room: Room): Entry {
    const hit = this.cache.get(room);
    if (hit && hit.version === room.version && hit.autoRecord === room.autoRecord) return hit;
    this.serialised++;
    const bytes = roomJsonBytes(room);
    const entry: Entry = { version: room.version, autoRecord: room.autoRecord, bytes, etag: etagOf(bytes) };
    this.cache.set(room, entry);
    return entry;
  }

  /** The whole list as one body, rebuilt only when a room changed or the list did. */
  whole(rooms: readonly Room[]): ListPage {
    const prev = this.list;
    if (prev && prev.slots.length === rooms.length && rooms.every((r, i) => current(prev.slots[i], r))) return prev.page;
    // A room is looked for at its old place first, then (rooms added, removed or moved) by identity.
    let byRoom: Map<Room, Slot> | undefined;
    // Room for the usual room (1.1–1.5 KB) or a quarter more than last time, so that the buffer rarely grows.
    const w = new ByteWriter(Math.max(rooms.length * 1536, (prev?.page.body.length ?? 0) * 1.25));
    w.byte(OPEN);
    const slots = rooms.map((r, i): Slot => {
      if (i > 0) w.byte(COMMA);
      const start = w.length;
      let old = prev?.slots[i];
      if (prev && old?.room !== r) old = (byRoom ??= new Map(prev.slots.map((s) => [s.room, s]))).get(r);
      if (current(old, r)) w.copy(prev!.page.body, old.start, old.end);
      else {
        this.serialised++;
        writeRoomJson(w, r);
      }
      return { room: r, version: r.version, autoRecord: r.autoRecord, start, end: w.length };
    });
    w.byte(CLOSE);
    const out = w.done();
    this.list = { slots, page: { body: out, etag: etagOf(out) } };
    return this.list.page;
  }

  /** The list (optionally only recording rooms, optionally one page), as a JSON array body with its ETag. */
  page(rooms: readonly Room[], opts: { recording?: boolean; page?: number; limit?: number } = {}): ListPage {
    const all = this.whole(rooms);
    if (opts.recording === undefined && opts.limit === undefined && opts.page === undefined) return all;
    let picked = this.list!.slots;
    if (opts.recording !== undefined) picked = picked.filter((s) => s.room.state.recording === opts.recording);
    if (opts.limit !== undefined || opts.page !== undefined) {
      const limit = opts.limit ?? 100;
      const start = ((opts.page ?? 1) - 1) * limit;
      picked = picked.slice(start, start + limit);
    }
    const w = new ByteWriter(picked.reduce((n, s) => n + s.end - s.start + 1, 2));
    w.byte(OPEN);
    picked.forEach((s, i) => {
      if (i > 0) w.byte(COMMA);
      w.copy(all.body, s.start, s.end);
    });
    w.byte(CLOSE);
    const body = w.done();
    return { body, etag: etagOf(body) };
  }
}

/** True when the request's If-None-Match names this ETag (or `*`). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const weak = (t: string): string => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || weak(t) === weak(etag));
}
