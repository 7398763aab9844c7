// The room list and room resources as serialised JSON, rebuilt only for rooms that changed, with ETags for 304s.
import { createHash } from 'node:crypto';
import type { Room } from '../rooms/room.js';
import { roomDto } from './room-dto.js';

/*
 * Why per-room strings keyed by what changed, not a timed snapshot: an answer must show a change the moment it
 * happened (a test or a client that POSTs /stop and then GETs must see it), yet 5000 idle rooms must not be
 * serialised again on every request. A room's stats objects are replaced on every update (identity tells), its
 * state is patched in place (a short signature tells). The whole list's body and ETag are reused while no room
 * changed and the list is the same.
 */
interface Entry {
  sig: string;
  recordingStats: unknown;
  ioStats: unknown;
  json: string;
  etag: string;
}

export interface ListPage {
  body: string;
  etag: string;
}

const etagOf = (text: string): string => `W/"${createHash('sha1').update(text).digest('base64url').slice(0, 22)}"`;

function stateSig(room: Room): string {
  const s = room.state;
  return `${room.roomId}|${room.autoRecord}|${room.objectId}|${s.shortId}|${s.name}|${s.uid}|${s.title}|${s.areaNameParent}|${s.areaNameChild}|`
    + `${s.recording}|${s.streaming}|${s.danmakuConnected}|${s.autoRecordForThisSession}|${s.recordingCodec}|${s.waitingForDiskSpace}|${s.unavailableReason}`;
}

export class RoomSnapshots {
  private readonly cache = new WeakMap<Room, Entry>();
  private list: { rooms: Room[]; jsons: string[]; page: ListPage } | null = null;
  /** Room DTOs serialised (for tests and the benchmark: stays flat while nothing changes). */
  serialised = 0;

  /** The room's JSON and ETag, serialised again only when the room changed. */
  room(room: Room): Entry {
    const sig = stateSig(room);
    const hit = this.cache.get(room);
    if (hit && hit.sig === sig && hit.recordingStats === room.recordingStats && hit.ioStats === room.ioStats) return hit;
    this.serialised++;
    const json = JSON.stringify(roomDto(room));
    const entry: Entry = { sig, recordingStats: room.recordingStats, ioStats: room.ioStats, json, etag: etagOf(json) };
    this.cache.set(room, entry);
    return entry;
  }

  /** The list (optionally only recording rooms, optionally one page), as a JSON array body with its ETag. */
  page(rooms: readonly Room[], opts: { recording?: boolean; page?: number; limit?: number } = {}): ListPage {
    const jsons = rooms.map((r) => this.room(r).json);
    const whole = opts.recording === undefined && opts.limit === undefined && opts.page === undefined;
    if (whole) {
      const prev = this.list;
      if (prev && prev.rooms.length === rooms.length && prev.jsons.every((j, i) => j === jsons[i] && prev.rooms[i] === rooms[i])) return prev.page;
      const body = `[${jsons.join(',')}]`;
      this.list = { rooms: [...rooms], jsons, page: { body, etag: etagOf(body) } };
      return this.list.page;
    }
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
