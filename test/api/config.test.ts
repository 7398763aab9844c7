// Config API semantics: omitted key unchanged, hasValue:false clears, wrong types 400 naming the field, file saved.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_NAMES, FIELDS, GLOBAL_FIELDS, ROOM_FIELDS } from '../../src/config/fields.js';
import { startFixture, type ApiFixture } from './fixture.js';

let fx: ApiFixture;
const saved = (): any => JSON.parse(readFileSync(join(fx.workDir, 'config.json'), 'utf8'));
const post = async (path: string, body: unknown): Promise<{ status: number; json: any }> => {
  const res = await fx.call('POST', path, body);
  return { status: res.status, json: await res.json() };
};

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx?.close());

describe('GET /api/config/*', () => {
  it('default: plain camelCase values of every global and room-overridable field (liverec additions included)', async () => {
    const body = (await (await fx.call('GET', '/api/config/default')).json()) as Record<string, unknown>;
    expect(Object.keys(body)).toHaveLength(GLOBAL_FIELDS.length);
    for (const f of GLOBAL_FIELDS) expect(body[f[0]!.toLowerCase() + f.slice(1)], f).toEqual(FIELDS[f].default);
    expect(body).toMatchObject({ danmakuTransport: 3, timingWebhookTimeout: 10000, flvProcessorDisableSplitOnH264AnnexB: false });
    expect(body).not.toHaveProperty('roomId');
    expect(body).not.toHaveProperty('autoRecord');
  });

  it('global: optional<Name> for every field; hasValue false carries the type default, not the effective value', async () => {
    const body = (await (await fx.call('GET', '/api/config/global')).json()) as Record<string, any>;
    expect(Object.keys(body)).toEqual(GLOBAL_FIELDS.map((f) => `optional${f}`));
    expect(body.optionalLiveApiHost).toEqual({ hasValue: true, value: 'http://127.0.0.1:9' }); // set by the fixture
    expect(body.optionalCuttingNumber).toEqual({ hasValue: false, value: 0 });
    expect(body.optionalRecordDanmakuSuperChat).toEqual({ hasValue: false, value: false });
    expect(body.optionalCookie).toEqual({ hasValue: false, value: null });
  });

  it('room: autoRecord plus the room-overridable fields', async () => {
    const body = (await (await fx.call('GET', '/api/room/1001/config')).json()) as Record<string, any>;
    expect(Object.keys(body)).toEqual(['autoRecord', ...ROOM_FIELDS.map((f) => `optional${f}`)]);
    expect(body.autoRecord).toBe(true);
    expect(ROOM_FIELDS).toContain('TitleFilterPatterns');
  });
});

describe('POST /api/config/global', () => {
  it('sets, keeps omitted keys, clears with hasValue:false, and saves config.json each time', async () => {
    let r = await post('/api/config/global', { optionalCuttingNumber: { hasValue: true, value: 30 }, optionalCookie: { hasValue: true, value: 'SESSDATA=x' } });
    expect(r.status).toBe(200);
    expect(r.json.optionalCuttingNumber).toEqual({ hasValue: true, value: 30 });
    expect(saved().global.CuttingNumber).toEqual({ HasValue: true, Value: 30 });
    expect(fx.recorder.config.effective('CuttingNumber', fx.recorder.findRoom(1001)!.entry)).toBe(30);

    r = await post('/api/config/global', { optionalCookie: { hasValue: false, value: 'ignored' }, optionalTimingCheckInterval: null });
    expect(r.json.optionalCuttingNumber).toEqual({ hasValue: true, value: 30 }); // omitted: unchanged
    expect(r.json.optionalCookie).toEqual({ hasValue: false, value: null }); // cleared
    expect(saved().global).not.toHaveProperty('Cookie');
    expect(saved().global.CuttingNumber).toEqual({ HasValue: true, Value: 30 });

    // Case-insensitive members, unknown members ignored (the WebUI sends defaultValue), hasValue:true without value = type default.
    r = await post('/api/config/global', { OptionalRecordDanmaku: { HasValue: true, defaultValue: true }, somethingElse: 1 });
    expect(r.status).toBe(200);
    expect(r.json.optionalRecordDanmaku).toEqual({ hasValue: true, value: false });
    expect(saved().global.RecordDanmaku).toEqual({ HasValue: true, Value: false });
  });

  it.each([
    ['optionalCuttingNumber', { hasValue: true, value: -1 }],
    ['optionalCuttingNumber', { hasValue: true, value: 'ten' }],
    ['optionalCuttingNumber', { hasValue: true, value: 1.5 }],
    ['optionalRecordMode', { hasValue: true, value: 7 }],
    ['optionalFlvWriteMetadata', { hasValue: true, value: 'yes' }],
    ['optionalCookie', { hasValue: true, value: 5 }],
    ['optionalTimingCheckInterval', { hasValue: 'true', value: 5 }],
    ['optionalTimingCheckInterval', 42],
  ])('refuses %s = %j with a 400 naming the field, changing nothing', async (key, value) => {
    const before = readFileSync(join(fx.workDir, 'config.json'), 'utf8');
    const r = await post('/api/config/global', { optionalWebHookUrls: { hasValue: true, value: 'http://127.0.0.1:9/x' }, [key]: value });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(-10);
    expect(r.json.message).toContain(key);
    expect(readFileSync(join(fx.workDir, 'config.json'), 'utf8')).toBe(before);
    expect(fx.recorder.config.global).not.toHaveProperty('WebHookUrls');
  });

  it('refuses bodies that are not objects or not JSON', async () => {
    for (const body of ['[]', '"x"', '42', 'null', '{"optionalCookie":', '']) {
      const res = await fx.call('POST', '/api/config/global', body);
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { code: number }).code).toBe(-10);
    }
  });
});

describe('POST /api/room/{id}/config', () => {
  it('sets room overrides and autoRecord, keeps omitted keys, clears with hasValue:false, saves', async () => {
    let r = await post('/api/room/1002/config', { autoRecord: true, optionalRecordMode: { hasValue: true, value: 1 }, optionalTitleFilterPatterns: { hasValue: true, value: '测试' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ autoRecord: true, optionalRecordMode: { hasValue: true, value: 1 }, optionalTitleFilterPatterns: { hasValue: true, value: '测试' } });
    const room = () => saved().rooms.find((x: any) => x.RoomId.Value === 1002);
    expect(room()).toMatchObject({ AutoRecord: { HasValue: true, Value: true }, RecordMode: { HasValue: true, Value: 1 } });
    expect(fx.recorder.findRoom(1002)!.autoRecord).toBe(true);

    r = await post('/api/room/1002/config', { autoRecord: null, optionalRecordMode: { hasValue: false } });
    expect(r.json).toMatchObject({ autoRecord: true, optionalRecordMode: { hasValue: false, value: 0 }, optionalTitleFilterPatterns: { hasValue: true, value: '测试' } });
    expect(room()).not.toHaveProperty('RecordMode');

    r = await post('/api/room/1002/config', { optionalCuttingNumber: { hasValue: true, value: 'x' } });
    expect(r.status).toBe(400);
    expect(r.json.message).toContain('optionalCuttingNumber');
    // A global-only field is not a room field: ignored like any unknown member.
    r = await post('/api/room/1002/config', { optionalCookie: { hasValue: true, value: 'x' } });
    expect(r.status).toBe(200);
    expect(r.json).not.toHaveProperty('optionalCookie');
  });

  it('the table drives the DTOs: every field is documented exactly once', () => {
    expect(new Set(FIELD_NAMES).size).toBe(FIELD_NAMES.length);
    expect(GLOBAL_FIELDS.filter((f) => FIELDS[f].scope === 'RG')).toEqual(ROOM_FIELDS);
  });
});
