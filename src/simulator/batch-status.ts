// The batch status endpoint room/v1/Room/get_status_info_by_uids: one call, many rooms, a map keyed by uid (capture's shape).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { envelope, readJson, sendJson } from './http-util.js';
import { batchRoomFault } from './batch-room-faults.js';
import type { SimRoom } from './room.js';

export const BATCH_STATUS_PATH = '/room/v1/Room/get_status_info_by_uids';

/** What the endpoint needs of the simulator. */
export interface BatchContext {
  roomByUid(uid: number): SimRoom | undefined;
  batchCalls: number;
  /** Uids asked for in all batch calls together. */
  batchUids: number;
}

/** The uids of a GET (`uids[]=1&uids[]=2`, also `uids=1,2`) or a POST (`{"uids":[…]}` or a form body). */
async function readUids(req: IncomingMessage, url: URL): Promise<string[]> {
  const raw: string[] = [...url.searchParams.getAll('uids[]'), ...url.searchParams.getAll('uids').flatMap((v) => v.split(','))];
  if (req.method === 'POST') {
    const type = String(req.headers['content-type'] ?? '');
    if (type.includes('application/x-www-form-urlencoded')) {
      const chunks: Buffer[] = [];
      for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      raw.push(...form.getAll('uids[]'), ...form.getAll('uids').flatMap((v) => v.split(',')));
    } else {
      const body = (await readJson(req)) as { uids?: unknown };
      if (Array.isArray(body.uids)) raw.push(...body.uids.map((u) => String(u)));
    }
  }
  return raw.map((s) => s.trim()).filter((s) => s !== '');
}

/** One room as the capture shows it (test/fixtures/bili-real/api/bac_room_v1_Room_get_status_info_by_uids_*.json). */
export function statusEntry(room: SimRoom): Record<string, unknown> {
  return {
    title: room.title, room_id: room.roomId, uid: room.uid, online: room.live ? room.popularity : 0,
    live_time: room.live ? room.liveStartTime : 0, live_status: room.liveStatus, short_id: room.shortId,
    area: 6, area_name: '生活娱乐', area_v2_id: 371, area_v2_name: room.areaNameChild, area_v2_parent_name: room.areaNameParent,
    area_v2_parent_id: 9, uname: room.name, face: 'http://i2.hdslb.com/bfs/face/sim.jpg', tag_name: '', tags: '',
    cover_from_user: '', keyframe: '', lock_till: '0000-00-00 00:00:00', hidden_till: '0000-00-00 00:00:00', broadcast_type: 0,
  };
}

/** Unknown uids are left out of the map; no uid at all answers an empty list, as PHP encodes an empty map. */
export async function handleBatchStatus(ctx: BatchContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const uids = await readUids(req, url);
  if (uids.some((u) => !/^\d+$/.test(u))) return sendJson(res, 200, envelope(1002002, '参数错误', null, true));
  ctx.batchCalls++;
  ctx.batchUids += uids.length;
  const rooms = uids.map((u) => ctx.roomByUid(Number(u)));
  const fault = batchRoomFault(rooms.filter((r): r is SimRoom => r !== undefined), BATCH_STATUS_PATH);
  if (fault) return sendJson(res, fault.status, fault.body);
  const data: Record<string, unknown> = {};
  uids.forEach((u, i) => {
    const room = rooms[i];
    if (room) data[u] = statusEntry(room);
  });
  sendJson(res, 200, { code: 0, msg: 'success', message: 'success', data: Object.keys(data).length ? data : [] });
}
