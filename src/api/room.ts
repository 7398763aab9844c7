// The room resource: list, add, get, delete, stats, ioStats and the start/stop/split/refresh actions.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { roomLogger } from '../log/logger.js';
import type { Room } from '../rooms/room.js';
import { caseInsensitive } from './body.js';
import type { ApiApp, ApiDeps } from './context.js';
import { errorContent, roomIdOutOfRange, roomNotFound } from './errors.js';
import { sendJson } from './json.js';
import { IoStatsSchema, ioStatsDto, RecordingStatsSchema, recordingStatsDto, RoomSchema, roomDto } from './room-dto.js';
import { parseRoomRef, RoomIdParams } from './room-id.js';
import { Int32Schema } from './schemas.js';
import { JSON_CONTENT_TYPE } from './json.js';
import { notModified, RoomSnapshots } from './room-snapshot.js';
import { errorResponse } from './errors.js';

const badListQuery = (_c: Context, message: string): Response => errorResponse(400, -10, `Invalid query: ${message}`);

const json = <T extends z.ZodType>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });

export const CreateRoomSchema = caseInsensitive(
  z.object({ roomId: Int32Schema.optional(), autoRecord: z.boolean().optional() }).openapi('CreateRoomDto'),
);

/** Finds the room of `{id}`; numeric ids ≤ 0 are refused (-2) rather than brec's match-the-first-unfetched-room quirk. */
export function lookupRoom(deps: ApiDeps, c: Context, raw: string) {
  const ref = parseRoomRef(raw);
  if (!ref) return { error: roomNotFound(c) };
  if (ref.kind === 'number' && ref.id <= 0) return { error: roomIdOutOfRange(c) };
  const room = deps.recorder.findRoom(ref.id);
  return room ? { room } : { error: roomNotFound(c) };
}

const perRoom = <M extends 'get' | 'post' | 'delete', P extends string, S extends z.ZodType>(
  method: M, path: P, summary: string, schema: S, description: string,
) =>
  createRoute({
    method, path: `/api/room/{id}${path}` as `/api/room/{id}${P}`, summary, tags: ['Room'],
    request: { params: RoomIdParams },
    responses: {
      200: { content: { 'application/json': { schema } }, description },
      400: { content: errorContent, description: 'Room id ≤ 0 (code -2)' },
      404: { content: errorContent, description: 'Room not found (code -4)' },
    },
  });

/** liverec's optional list parameters; brec clients send none and get the whole list, as from brec. */
const ListQuery = z.object({
  page: z.coerce.number().int().min(1).optional().openapi({ description: 'liverec: 1-based page of `limit` rooms (default limit 100)' }),
  limit: z.coerce.number().int().min(1).max(10_000).optional().openapi({ description: 'liverec: rooms per page' }),
  recording: z.enum(['true', 'false']).optional().openapi({ description: 'liverec: only rooms that are (true) or are not (false) recording' }),
});
/*
 * The query is described, not declared: brec's client generators take one parameter at most per operation, and
 * brec clients send none. An invalid value is refused with 400 (-10) like any bad request.
 */
const list = createRoute({
  method: 'get', path: '/api/room', summary: '列出所有直播间', tags: ['Room'],
  description: 'Every room in list order. liverec additions that brec clients can ignore: the answer (and GET /api/room/{id}) carries an '
    + 'ETag, and a request whose If-None-Match names it gets 304 with no body; optional query parameters `recording=true|false` '
    + '(only rooms that are / are not recording), `limit` (rooms per page, 1–10000, default 100 when `page` is given) and `page` (1-based).',
  responses: { 200: json(z.array(RoomSchema), 'All rooms in list order (or the page asked for)') },
});
const add = createRoute({
  method: 'post', path: '/api/room', summary: '添加直播间', tags: ['Room'],
  description: 'Adds a room and saves the config. An existing room (room id or short id) is returned with autoRecord updated, not saved. ' +
    'A short id is resolved to the real room id first; adds are serialised. The answer does not wait for the room\'s thread.',
  request: { body: { content: { 'application/json': { schema: CreateRoomSchema } }, required: true } },
  responses: {
    200: json(RoomSchema, 'The added (or existing) room'),
    // Also (not per operation, like 413/415): 409 MaxRooms reached (-19), 507 disk full (-18, nothing added).
    400: { content: errorContent, description: 'roomId ≤ 0 (-2) or an invalid body (-10)' },
  },
});
const get = perRoom('get', '', '读取一个直播间', RoomSchema, 'The room');
const remove = perRoom('delete', '', '删除直播间', RoomSchema, 'The removed room');
const stats = perRoom('get', '/stats', '读取直播间录制统计信息', RecordingStatsSchema, 'Recording statistics');
const ioStats = perRoom('get', '/iostats', '读取直播间 IO 统计信息', IoStatsSchema, 'IO statistics');
const actions = {
  start: perRoom('post', '/start', '开始录制', RoomSchema, 'The room; recording starts asynchronously'),
  stop: perRoom('post', '/stop', '停止录制', RoomSchema, 'The room; recording stops asynchronously'),
  split: perRoom('post', '/split', '手动分段', RoomSchema, 'The room; the file is split before the next tag group'),
  refresh: perRoom('post', '/refresh', '刷新直播间信息', RoomSchema, 'The room after its info was re-fetched'),
} as const;

/** Registers the room routes; answers the snapshots they serve from (the raw fast path serves from the same). */
export function registerRoomRoutes(app: ApiApp, deps: ApiDeps): RoomSnapshots {
  const { recorder } = deps;

  const snapshots = new RoomSnapshots();
  const cached = (body: Buffer, etag: string, ifNoneMatch: string | undefined): Response =>
    notModified(ifNoneMatch, etag)
      ? new Response(null, { status: 304, headers: { etag } })
      : new Response(body, { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE, etag } });

  app.openapi(list, (c) => {
    const q = ListQuery.safeParse(c.req.query());
    if (!q.success) return badListQuery(c, q.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')) as never;
    const page = snapshots.page(recorder.rooms, { page: q.data.page, limit: q.data.limit, recording: q.data.recording === undefined ? undefined : q.data.recording === 'true' });
    return cached(page.body, page.etag, c.req.header('if-none-match')) as never;
  });

  app.openapi(add, async (c) => {
    const body = c.req.valid('json');
    const roomId = body.roomId ?? 0;
    if (roomId <= 0) return roomIdOutOfRange(c);
    // ROOM_LIMIT (409) and CONFIG_DISK_FULL (507) are thrown on to the app's error handler (fallback.ts).
    const room = await recorder.addRoom(roomId, body.autoRecord ?? false);
    return sendJson(c, roomDto(room), 200);
  });

  app.openapi(get, (c) => {
    const r = lookupRoom(deps, c, c.req.valid('param').id);
    if (r.error) return r.error;
    const entry = snapshots.room(r.room);
    return cached(entry.bytes, entry.etag, c.req.header('if-none-match')) as never;
  });

  app.openapi(remove, async (c) => {
    const r = lookupRoom(deps, c, c.req.valid('param').id);
    if (r.error) return r.error;
    const dto = roomDto(r.room);
    await recorder.removeRoom(r.room);
    return sendJson(c, dto, 200);
  });

  app.openapi(stats, (c) => {
    const r = lookupRoom(deps, c, c.req.valid('param').id);
    return r.error ?? sendJson(c, recordingStatsDto(r.room.recordingStats), 200);
  });

  app.openapi(ioStats, (c) => {
    const r = lookupRoom(deps, c, c.req.valid('param').id);
    return r.error ?? sendJson(c, ioStatsDto(r.room.ioStats), 200);
  });

  for (const action of ['start', 'stop', 'split'] as const) {
    app.openapi(actions[action], (c) => {
      const r = lookupRoom(deps, c, c.req.valid('param').id);
      if (r.error) return r.error;
      runRoomAction(r.room, action);
      return sendJson(c, roomDto(r.room), 200);
    });
  }

  app.openapi(actions.refresh, async (c) => {
    const r = lookupRoom(deps, c, c.req.valid('param').id);
    if (r.error) return r.error;
    await refreshRoom(deps, r.room);
    return sendJson(c, roomDto(r.room), 200);
  });
  return snapshots;
}

/** brec answers start/stop/split at once (the work is asynchronous); a failure is logged, never answered. */
export function runRoomAction(room: Room, action: 'start' | 'stop' | 'split'): void {
  room[action]().catch((err: unknown) => roomLogger(room.roomId).warn({ err, action }, 'room command failed'));
}

/** Waits for the room-info fetch, bounded by the API timeout plus slack so a stuck worker cannot hold a request. */
export async function refreshRoom(deps: ApiDeps, room: Room): Promise<void> {
  const limit = deps.recorder.config.effective('TimingApiTimeout', room.entry) + 5_000;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    room.refresh().catch((err: unknown) => roomLogger(room.roomId).warn({ err }, 'room refresh failed')),
    new Promise<void>((resolve) => { timer = setTimeout(resolve, limit); }),
  ]);
  clearTimeout(timer);
}
