// The batch status endpoint (room/v1/Room/get_status_info_by_uids): many rooms' live flags in one unsigned call.
import { type Json, num, obj, optNum, optStr } from './json-read.js';
import { MAX_FIELD_CHARS } from './field-limits.js';
import { stripControlChars } from '../template/control-chars.js';

/** A text field of the answer, cut at parse time like every title and name liverec keeps (hostile answers), without control characters. */
const text = (v: unknown, path: string): string => stripControlChars(optStr(v, path, '').slice(0, MAX_FIELD_CHARS));

export const BATCH_STATUS_PATH = '/room/v1/Room/get_status_info_by_uids';

/** One room of a batch answer (field names of the capture, made camelCase). */
export interface BatchRoomStatus {
  uid: number;
  roomId: number;
  shortId: number;
  /** 0 offline, 1 live, 2 round (rebroadcast, not live). */
  liveStatus: number;
  /** Unix seconds of the live start, 0 when offline. */
  liveTime: number;
  title: string;
  uname: string;
  areaName: string;
  parentAreaName: string;
}

/** The uid → status map; an empty answer arrives as `[]` (an empty PHP map). */
export function readBatchStatus(data: Json): Map<number, BatchRoomStatus> {
  const out = new Map<number, BatchRoomStatus>();
  if (Array.isArray(data)) return out;
  for (const [key, value] of Object.entries(obj(data, 'data'))) {
    const d = obj(value, `data.${key}`);
    const uid = optNum(d.uid, `data.${key}.uid`, Number(key));
    out.set(uid, {
      uid,
      roomId: num(d.room_id, `data.${key}.room_id`),
      shortId: optNum(d.short_id, `data.${key}.short_id`, 0),
      liveStatus: num(d.live_status, `data.${key}.live_status`),
      liveTime: optNum(d.live_time, `data.${key}.live_time`, 0),
      title: text(d.title, `data.${key}.title`),
      uname: text(d.uname, `data.${key}.uname`),
      areaName: text(d.area_v2_name, `data.${key}.area_v2_name`),
      parentAreaName: text(d.area_v2_parent_name, `data.${key}.area_v2_parent_name`),
    });
  }
  return out;
}

/** The query of a GET: `uids[]=1&uids[]=2` (brackets unencoded, as the web client sends them). */
export function batchQuery(uids: readonly number[]): string {
  return uids.map((u) => `uids[]=${u}`).join('&');
}

export const BASE_INFO_PATH = '/xlive/web-room/v1/index/getRoomBaseInfo';

/** One room of getRoomBaseInfo's by_room_ids map: what the detector needs to learn a room's uid. */
export interface RoomBaseInfo {
  roomId: number;
  shortId: number;
  uid: number;
  liveStatus: number;
  title: string;
  uname: string;
  areaName: string;
  parentAreaName: string;
}

/** getRoomBaseInfo's `data.by_room_ids` (test/fixtures/bili-real/api/bac_xlive_web-room_v1_index_getRoomBaseInfo.json). */
export function readBaseInfo(data: Json): RoomBaseInfo[] {
  const d = obj(data, 'data');
  const rooms = d.by_room_ids;
  if (rooms === undefined || rooms === null || Array.isArray(rooms)) return [];
  return Object.entries(obj(rooms, 'data.by_room_ids')).map(([key, value]) => {
    const r = obj(value, `data.by_room_ids.${key}`);
    return {
      roomId: num(r.room_id, `data.by_room_ids.${key}.room_id`), shortId: optNum(r.short_id, `data.by_room_ids.${key}.short_id`, 0),
      uid: num(r.uid, `data.by_room_ids.${key}.uid`), liveStatus: optNum(r.live_status, `data.by_room_ids.${key}.live_status`, 0),
      title: text(r.title, `data.by_room_ids.${key}.title`), uname: text(r.uname, `data.by_room_ids.${key}.uname`),
      areaName: text(r.area_name, `data.by_room_ids.${key}.area_name`), parentAreaName: text(r.parent_area_name, `data.by_room_ids.${key}.parent_area_name`),
    };
  });
}
