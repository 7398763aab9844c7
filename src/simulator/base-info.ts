// xlive/web-room/v1/index/getRoomBaseInfo: many rooms by room id in one call (by_room_ids map, capture's shape).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './http-util.js';
import { batchRoomFault } from './batch-room-faults.js';
import type { SimRoom } from './room.js';

export const BASE_INFO_PATH = '/xlive/web-room/v1/index/getRoomBaseInfo';

export interface BaseInfoContext {
  findRoom(id: number, acceptsShortId: boolean): SimRoom | undefined;
  baseInfoCalls: number;
}

/** "YYYY-MM-DD HH:mm:ss" in China time, as the capture's live_time; zeros when offline. */
function liveTime(room: SimRoom): string {
  if (!room.live) return '0000-00-00 00:00:00';
  return new Date((room.liveStartTime + 8 * 3600) * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** test/fixtures/bili-real/api/bac_xlive_web-room_v1_index_getRoomBaseInfo.json; short ids are accepted, keys are real ids. */
export function handleBaseInfo(ctx: BaseInfoContext, _req: IncomingMessage, res: ServerResponse, url: URL): void {
  const ids = [...url.searchParams.getAll('room_ids'), ...url.searchParams.getAll('room_ids[]')].flatMap((v) => v.split(','));
  if (ids.length === 0 || ids.some((v) => !/^\d+$/.test(v))) return sendJson(res, 200, { code: 1, message: '参数错误', ttl: 1, data: null });
  ctx.baseInfoCalls++;
  const named = ids.map((id) => ctx.findRoom(Number(id), true)).filter((r): r is SimRoom => r !== undefined);
  const fault = batchRoomFault(named, BASE_INFO_PATH);
  if (fault) return sendJson(res, fault.status, fault.body);
  const byRoomIds: Record<string, unknown> = {};
  for (const id of ids) {
    const room = ctx.findRoom(Number(id), true);
    if (!room) continue;
    byRoomIds[String(room.roomId)] = {
      room_id: room.roomId, uid: room.uid, area_id: 371, live_status: room.liveStatus, live_url: `https://live.bilibili.com/${room.roomId}`,
      parent_area_id: 9, title: room.title, parent_area_name: room.areaNameParent, area_name: room.areaNameChild, live_time: liveTime(room),
      description: '', tags: '', attention: 1000, online: room.live ? room.popularity : 0, short_id: room.shortId, uname: room.name,
      cover: '', background: '', join_slide: 1, live_id: 0, live_id_str: '0',
    };
  }
  sendJson(res, 200, { code: 0, message: '0', ttl: 1, data: { by_uids: {}, by_room_ids: byRoomIds } });
}
