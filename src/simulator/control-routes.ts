// The simulator's JSON control API under /_sim/ (rooms, live flips, danmaku pushes, faults, counters).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { danmuCommand, giftCommand, guardCommand, superChatCommand } from './danmaku-messages.js';
import { BodyError, readJson, sendJson } from './http-util.js';
import { armCaptured, CAPTURED_ENDPOINTS, CapturedError } from './captured.js';
import { type RoomOps, SimError } from './room-ops.js';
import { SIM_SPECIALS } from './special-rooms.js';

const id = z.number().int().positive().max(2 ** 31);
const CreateRoom = z.object({
  roomId: id, shortId: id.optional(), uid: id.optional(), name: z.string().optional(), title: z.string().optional(),
  areaNameParent: z.string().optional(), areaNameChild: z.string().optional(), live: z.boolean().optional(),
  bitrateKbps: z.number().positive().max(100_000).optional(), acceptQn: z.array(z.number().int()).min(1).optional(), hevc: z.boolean().optional(),
  padWithFiller: z.boolean().optional(),
  formats: z.array(z.enum(['flv', 'ts', 'fmp4'])).min(1).optional(),
  hevcOnly: z.boolean().optional(),
  special: z.enum(SIM_SPECIALS).nullable().optional(),
  av1: z.boolean().optional(),
  av1Only: z.boolean().optional(),
  hlsOnlyInMaster: z.boolean().optional(),
  opaqueNames: z.boolean().optional(),
  variants: z.object({ bluray: z.boolean().optional(), originReturnDelayMs: z.number().int().min(0).optional(), originBitrate: z.number().int().positive().optional(), originAvailable: z.boolean().optional() }).optional(),
  guestQnCap: z.boolean().optional(), guestDanmakuMask: z.boolean().optional(), streamTtlSec: z.number().int().min(1).max(86_400).optional(),
  liveStream: z.object({ hlsRetentionSec: z.number().min(0).max(86_400).optional(), streamAgeSec: z.number().min(0).max(86_400).optional() }).or(z.literal(false)).optional(),
});
const Captured = z.object({ endpoint: z.enum(CAPTURED_ENDPOINTS), body: z.unknown().refine((b) => b !== undefined, 'body is required') });
const Live = z.object({ live: z.boolean(), round: z.boolean().optional() });
const Title = z.object({ title: z.string(), areaNameParent: z.string().optional(), areaNameChild: z.string().optional() });
const Danmu = z.object({
  text: z.string(), uid: z.number().int().min(0).optional(), uname: z.string().optional(), suffix: z.string().optional(),
  guardLevel: z.number().int().min(0).max(3).optional(), admin: z.boolean().optional(), color: z.number().int().optional(),
});
const Gift = z.object({ giftName: z.string().optional(), num: z.number().int().positive().optional(), uid: z.number().int().optional(), uname: z.string().optional(), price: z.number().optional(), coinType: z.enum(['gold', 'silver']).optional() });
const SuperChat = z.object({ message: z.string(), price: z.number().optional(), uid: z.number().int().optional(), uname: z.string().optional(), time: z.number().optional() });
const Guard = z.object({ uid: z.number().int().optional(), username: z.string().optional(), guardLevel: z.number().int().min(1).max(3).optional(), num: z.number().int().optional(), price: z.number().optional() });
const Mix = z.object({ DANMU_MSG: z.number().min(0), SUPER_CHAT_MESSAGE: z.number().min(0), SEND_GIFT: z.number().min(0), GUARD_BUY: z.number().min(0) }).partial();
const DanmakuRate = z.object({ rate: z.number().min(0).max(10_000), mix: Mix.optional() });
const OriginOutage = z.object({ returnAfterMs: z.number().int().min(0).max(86_400_000).optional() });
const CutOff = z.object({ msg: z.string().default('违反直播规范') });
/** Raw danmaku input: `base64` = one WebSocket message as is, or `command` = any JSON object sent as a command. */
const Raw = z.object({ base64: z.string().optional(), command: z.record(z.string(), z.unknown()).optional() }).refine((r) => r.base64 !== undefined || r.command !== undefined, 'base64 or command is required');

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new SimError(400, r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  return r.data;
}

/**
 * POST   /_sim/rooms                      CreateRoom → 201 room
 * GET    /_sim/rooms                      → [room]
 * GET    /_sim/stats                      → totals
 * GET    /_sim/rooms/{id}                 → room with counters, logs and pending faults
 * DELETE /_sim/rooms/{id}                 → 204
 * POST   /_sim/rooms/{id}/live            {live, round?}
 * POST   /_sim/rooms/{id}/title           {title, areaNameParent?, areaNameChild?}  (+ ROOM_CHANGE)
 * POST   /_sim/rooms/{id}/danmaku         {text, uid?, uname?, suffix?, guardLevel?, admin?, color?}
 * POST   /_sim/rooms/{id}/gift            {giftName?, num?, uid?, uname?, price?, coinType?}
 * POST   /_sim/rooms/{id}/superchat       {message, price?, uid?, uname?, time?}
 * POST   /_sim/rooms/{id}/guard           {uid?, username?, guardLevel?, num?, price?}
 * POST   /_sim/rooms/{id}/danmaku-rate    {rate, mix?: {DANMU_MSG?, SUPER_CHAT_MESSAGE?, SEND_GIFT?, GUARD_BUY?}}  generated danmaku
 * GET    /_sim/rooms/{id}/frames-sent     → live-stream rooms: {startedAt, flvSent: [{connection, firstVideoTs, lastVideoTs, videoFrames}], hlsServed}
 * GET    /_sim/rooms/{id}/danmaku-sent    → {rate, counts, messages: [{seq, cmd, connection, positionMs, at}]}
 * POST   /_sim/rooms/{id}/cut-off         {msg?}
 * POST   /_sim/rooms/{id}/origin-outage   {returnAfterMs?}  origin gone, back later with master_qn_strategy_chg
 * POST   /_sim/rooms/{id}/origin-return   the origin is offered again now
 * POST   /_sim/rooms/{id}/danmaku-raw     {base64} | {command}
 * POST   /_sim/rooms/{id}/faults          see faults.ts      DELETE /_sim/rooms/{id}/faults clears them
 * POST   /_sim/rooms/{id}/captured        {endpoint: getInfoByRoom|getRoomPlayInfo|roomInit|getDanmuInfo|masterPlaylist, body}  replay a capture
 */
export async function handleControl(sim: RoomOps & { stats(): unknown }, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  try {
    const parts = url.pathname.split('/').filter(Boolean); // ['_sim', 'rooms', id?, action?]
    const method = req.method ?? 'GET';
    if (parts.length === 2 && parts[1] === 'stats' && method === 'GET') return sendJson(res, 200, sim.stats());
    if (parts[1] !== 'rooms' || parts.length > 4) throw new SimError(404, `Unknown control path ${url.pathname}`);
    if (parts.length === 2) {
      if (method === 'GET') return sendJson(res, 200, [...sim.rooms.values()]);
      if (method === 'POST') return sendJson(res, 201, sim.createRoom(parse(CreateRoom, await readJson(req))));
      throw new SimError(405, `${method} not allowed`);
    }
    if (!/^\d+$/.test(parts[2]!)) throw new SimError(400, `Bad room id ${parts[2]}`);
    const roomId = Number(parts[2]);
    const action = parts[3];
    if (action === undefined) {
      if (method === 'GET') return sendJson(res, 200, sim.room(roomId));
      if (method === 'DELETE') {
        sim.deleteRoom(roomId);
        res.writeHead(204).end();
        return;
      }
      throw new SimError(405, `${method} not allowed`);
    }
    if (action === 'faults' && method === 'DELETE') {
      sim.clearFaults(roomId);
      res.writeHead(204).end();
      return;
    }
    if (action === 'danmaku-sent' && method === 'GET') return sendJson(res, 200, sim.danmakuSent(roomId));
    if (action === 'frames-sent' && method === 'GET') return sendJson(res, 200, sim.room(roomId).liveStream ?? { error: 'not a live-stream room' });
    if (method !== 'POST') throw new SimError(405, `${method} not allowed`);
    const body = await readJson(req);
    sendJson(res, 200, runAction(sim, roomId, action, body));
  } catch (err) {
    if (err instanceof SimError) return sendJson(res, err.status, { error: err.message });
    if (err instanceof BodyError) return sendJson(res, 400, { error: err.message });
    throw err;
  }
}

function runAction(sim: RoomOps, roomId: number, action: string, body: unknown): unknown {
  switch (action) {
    case 'live': {
      const b = parse(Live, body);
      return sim.setLive(roomId, b.live, b.round ?? false);
    }
    case 'title':
      return sim.changeRoom(roomId, parse(Title, body));
    case 'danmaku':
      return { sockets: sim.push(roomId, [danmuCommand(parse(Danmu, body))]) };
    case 'gift':
      return { sockets: sim.push(roomId, [giftCommand(parse(Gift, body))]) };
    case 'superchat':
      return { sockets: sim.push(roomId, [superChatCommand(sim.room(roomId), parse(SuperChat, body))]) };
    case 'guard':
      return { sockets: sim.push(roomId, [guardCommand(parse(Guard, body))]) };
    case 'danmaku-rate':
      return sim.danmakuRate(roomId, parse(DanmakuRate, body));
    case 'cut-off':
      return sim.cutOff(roomId, parse(CutOff, body).msg);
    case 'danmaku-raw': {
      const b = parse(Raw, body);
      return { sockets: b.base64 !== undefined ? sim.pushRaw(roomId, Buffer.from(b.base64, 'base64')) : sim.push(roomId, [b.command!]) };
    }
    case 'faults':
      return sim.addFault(roomId, body);
    case 'captured': {
      const b = parse(Captured, body);
      try {
        armCaptured(sim.room(roomId), b.endpoint, b.body);
      } catch (err) {
        if (err instanceof CapturedError) throw new SimError(400, err.message);
        throw err;
      }
      return { endpoint: b.endpoint, captured: [...sim.room(roomId).captured.keys()] };
    }
    case 'origin-outage':
      return sim.originOutage(roomId, parse(OriginOutage, body).returnAfterMs);
    case 'origin-return':
      return sim.originReturn(roomId);
    default:
      throw new SimError(404, `Unknown room action ${action}`);
  }
}
