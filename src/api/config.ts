// Config routes: defaults, the global section and a room's section, with brec's Optional semantics; POSTs save.
import { createRoute } from '@hono/zod-openapi';
import { GLOBAL_FIELDS, ROOM_FIELDS } from '../config/fields.js';
import type { ApiApp, ApiDeps } from './context.js';
import {
  applyOptionals, DefaultConfigSchema, defaultConfigDto, GlobalConfigSchema, optionalsDto, RoomConfigSchema,
  SetGlobalConfigSchema, SetRoomConfigSchema,
} from './config-dto.js';
import { errorContent } from './errors.js';
import { sendJson } from './json.js';
import { lookupRoom } from './room.js';
import { RoomIdParams } from './room-id.js';

const ok = <T>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });
const invalid = { content: errorContent, description: 'Invalid body: malformed JSON or a wrong type, naming the field (-10)' };

const getDefault = createRoute({
  method: 'get', path: '/api/config/default', summary: '获取软件默认设置', tags: ['Config'],
  responses: { 200: ok(DefaultConfigSchema, 'Default values of every global and room-overridable field') },
});
const getGlobal = createRoute({
  method: 'get', path: '/api/config/global', summary: '获取全局设置', tags: ['Config'],
  responses: { 200: ok(GlobalConfigSchema, 'Global overrides') },
});
const setGlobal = createRoute({
  method: 'post', path: '/api/config/global', summary: '设置全局设置', tags: ['Config'],
  request: { body: { content: { 'application/json': { schema: SetGlobalConfigSchema } }, required: true } },
  responses: { 200: ok(GlobalConfigSchema, 'Global overrides after the change was applied and saved'), 400: invalid },
});
const roomResponses = {
  400: { content: errorContent, description: 'Room id ≤ 0 (-2) or an invalid body (-10)' },
  404: { content: errorContent, description: 'Room not found (-4)' },
};
const getRoom = createRoute({
  method: 'get', path: '/api/room/{id}/config', summary: '读取直播间设置', tags: ['Room'],
  request: { params: RoomIdParams },
  responses: { 200: ok(RoomConfigSchema, 'The room\'s overrides'), ...roomResponses },
});
const setRoom = createRoute({
  method: 'post', path: '/api/room/{id}/config', summary: '修改直播间设置', tags: ['Room'],
  request: { params: RoomIdParams, body: { content: { 'application/json': { schema: SetRoomConfigSchema } }, required: true } },
  responses: { 200: ok(RoomConfigSchema, 'The room\'s overrides after the change was applied and saved'), ...roomResponses },
});

export function registerConfigRoutes(app: ApiApp, deps: ApiDeps): void {
  const { recorder } = deps;
  const { config } = recorder;
  // Defaults never change at runtime: built once.
  const defaults = defaultConfigDto();

  app.openapi(getDefault, (c) => sendJson(c, defaults, 200));
  app.openapi(getGlobal, (c) => sendJson(c, optionalsDto(config.global, GLOBAL_FIELDS), 200));

  app.openapi(setGlobal, (c) => {
    const body = c.req.valid('json') as Record<string, unknown>;
    // Saved before it is live: a failed save (507 on a full disk) leaves the running config unchanged.
    config.commit(() => applyOptionals(config.global, body, GLOBAL_FIELDS));
    config.changed();
    recorder.pushSettings();
    return sendJson(c, optionalsDto(config.global, GLOBAL_FIELDS), 200);
  });

  const roomDto = (entry: (typeof config.rooms)[number]) => ({ autoRecord: entry.autoRecord, ...optionalsDto(entry.overrides, ROOM_FIELDS) });

  app.openapi(getRoom, (c) => {
    const r = lookupRoom(deps, c, c.req.valid('param').id);
    return r.error ?? sendJson(c, roomDto(r.room.entry), 200);
  });

  app.openapi(setRoom, (c) => {
    const r = lookupRoom(deps, c, c.req.valid('param').id);
    if (r.error) return r.error;
    const body = c.req.valid('json') as Record<string, unknown>;
    const { room } = r;
    config.commit(() => {
      if (typeof body.autoRecord === 'boolean') room.entry.autoRecord = body.autoRecord;
      applyOptionals(room.entry.overrides, body, ROOM_FIELDS);
    });
    config.changed();
    recorder.pushSettings(room);
    return sendJson(c, roomDto(room.entry), 200);
  });
}
