// The OpenAPI document as brec's SDK code generator (bililive-rec-sdk.js api-generator) reads it: the checks it makes
// on every operation and schema, so it runs on liverec's document without patches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type ApiFixture } from './fixture.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const PREFIX = '#/components/schemas/';

/** brec's operations and the names its SDK gives them (facts of brec's interface, by `path.method`). */
const BREC_OPERATIONS: Record<string, string> = {
  '/api/config/default.get': 'getDefaultConfig', '/api/config/global.get': 'getGlobalConfig', '/api/config/global.post': 'setGlobalConfig',
  '/api/room.get': 'listRooms', '/api/room.post': 'addRoom', '/api/version.get': 'getVersion', '/api/file.get': 'getFile',
  '/api/misc/generatefilename.post': 'generateFilename',
  ...Object.fromEntries([['', 'get', 'getRoom'], ['', 'delete', 'removeRoom'], ['/stats', 'get', 'getRoomRecordingStats'], ['/iostats', 'get', 'getRoomIoStats'],
    ['/config', 'get', 'getRoomConfig'], ['/config', 'post', 'setRoomConfig'], ['/start', 'post', 'startRecord'], ['/stop', 'post', 'stopRecord'],
    ['/split', 'post', 'splitRecord'], ['/refresh', 'post', 'refreshRoom']].flatMap(([suffix, method, stem]) => [
    [`/api/room/{roomId}${suffix}.${method}`, `${stem}ByRoomId`], [`/api/room/{objectId}${suffix}.${method}`, `${stem}ByObjectId`]])),
};

/**
 * Renders a schema the way the generator does, collecting what would crash it or come out as `unknown`: arrays by
 * their items, $refs only into components/schemas, objects only with a property list, enums only of integers or strings.
 */
function render(doc: Json, def: Json, at: string, problems: string[], seen = new Set<string>()): void {
  if (!def || typeof def !== 'object') return void problems.push(`${at}: no schema`);
  if (def.type === 'array') return render(doc, def.items, `${at}[]`, problems, seen);
  if (def.$ref !== undefined) {
    const name = String(def.$ref).startsWith(PREFIX) ? String(def.$ref).slice(PREFIX.length) : null;
    if (!name || !doc.components?.schemas?.[name]) return void problems.push(`${at}: unresolvable $ref ${def.$ref}`);
    if (!seen.has(name)) render(doc, doc.components.schemas[name], name, problems, seen.add(name));
    return;
  }
  if (def.oneOf || def.anyOf) return (def.oneOf ?? def.anyOf).forEach((s: Json, i: number) => render(doc, s, `${at}|${i}`, problems, seen));
  if (!('type' in def)) return void problems.push(`${at}: no type`);
  if (def.type === 'object') {
    if (!def.properties || typeof def.properties !== 'object') return void problems.push(`${at}: object without properties`);
    for (const [k, v] of Object.entries(def.properties)) render(doc, v, `${at}.${k}`, problems, seen);
    return;
  }
  if (def.enum && def.type !== 'integer' && def.type !== 'string') problems.push(`${at}: enum of type ${def.type}`);
  if (!['boolean', 'integer', 'number', 'string'].includes(def.type)) problems.push(`${at}: type ${def.type}`);
}

describe("the OpenAPI document under brec's SDK generator", () => {
  let fx: ApiFixture;
  let doc: Json;
  beforeAll(async () => {
    fx = await startFixture({ rooms: [] });
    doc = await (await fetch(`${fx.url}/swagger/brec/swagger.json`)).json();
  });
  afterAll(() => fx?.close());

  const operations = (): [string, string, Json][] =>
    Object.entries(doc.paths as Json).flatMap(([path, item]) => Object.entries(item as Json).map(([method, op]) => [path, method, op] as [string, string, Json]));

  it('renders every component schema: every $ref resolvable, every object with properties, no bare additionalProperties', () => {
    const problems: string[] = [];
    for (const [name, schema] of Object.entries(doc.components.schemas)) render(doc, schema, name, problems);
    expect(problems).toEqual([]);
    const bare: string[] = [];
    const walk = (node: Json, at: string): void => {
      if (!node || typeof node !== 'object') return;
      if (node.type === 'object' && node.additionalProperties !== undefined && !node.properties) bare.push(at);
      for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`);
    };
    walk(doc, '#');
    expect(bare).toEqual([]);
  });

  it("names every operation, with brec's names for brec's operations, and renders their parameters, bodies and answers", () => {
    const ids = operations().map(([, , op]) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[A-Za-z][A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const byKey = new Map(operations().map(([p, m, op]) => [`${p}.${m}`, op]));
    for (const [key, name] of Object.entries(BREC_OPERATIONS)) {
      const op = byKey.get(key);
      expect(op, key).toBeDefined();
      expect(op.operationId, key).toBe(name);
      // The generator takes one path or query parameter at most, a JSON body, and the 200 answer's JSON schema.
      expect((op.parameters ?? []).length, key).toBeLessThanOrEqual(1);
      const problems: string[] = [];
      for (const p of op.parameters ?? []) render(doc, p.schema, `${key} ${p.name}`, problems);
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body) render(doc, body, `${key} body`, problems);
      render(doc, op.responses?.['200']?.content?.['application/json']?.schema, `${key} 200`, problems);
      expect(problems).toEqual([]);
    }
    for (const [path, , op] of operations()) {
      for (const p of op.parameters ?? []) if (p.in === 'path') expect(path, `${op.operationId}`).toContain(`{${p.name}}`);
    }
  });

  it("serves the operations the SDK generator knows at /swagger/brec-sdk/swagger.json, every one of them and no other", async () => {
    const sdk = (await (await fetch(`${fx.url}/swagger/brec-sdk/swagger.json`)).json()) as Json;
    const keys = Object.entries(sdk.paths as Json).flatMap(([path, item]) => Object.keys(item as Json).map((m) => `${path}.${m}`));
    // The generator throws on any path.method outside its list, and takes at most one parameter per operation.
    expect(keys.sort()).toEqual(Object.keys(BREC_OPERATIONS).sort());
    for (const [path, item] of Object.entries(sdk.paths as Json)) {
      for (const [m, op] of Object.entries(item as Json)) {
        expect((op as Json).operationId).toBe(BREC_OPERATIONS[`${path}.${m}`]);
        expect(((op as Json).parameters ?? []).length).toBeLessThanOrEqual(1);
      }
    }
    // The same schemas, in the generator's forms (test/api/openapi-clients.test.ts compiles its output): a named
    // string such as DateTimeOffset is written in place, every other schema keeps its name.
    const plain = Object.entries(doc.components.schemas as Json).filter(([, s]) => (s as Json).type !== 'object' && !(s as Json).enum && !(s as Json).anyOf).map(([n]) => n);
    expect(plain).toContain('DateTimeOffset');
    expect(Object.keys(sdk.components.schemas).sort()).toEqual(Object.keys(doc.components.schemas).filter((n) => !plain.includes(n)).sort());
  });

  it("documents brec's two room path families: {roomId} int32 and {objectId} uuid", () => {
    for (const [path, , op] of operations().filter(([p]) => p.startsWith('/api/room/{'))) {
      const param = op.parameters.find((p: Json) => p.in === 'path');
      if (path.startsWith('/api/room/{roomId}')) expect(param.schema).toMatchObject({ type: 'integer', format: 'int32' });
      else if (path.startsWith('/api/room/{objectId}')) expect(param.schema).toMatchObject({ type: 'string', format: 'uuid' });
      else throw new Error(`unexpected room path ${path}`);
    }
    expect(Object.keys(doc.paths).some((p) => p.includes('{id}'))).toBe(false);
  });

  it("names brec's enums and types doubles as number/double", () => {
    const s = doc.components.schemas;
    for (const name of ['RecordMode', 'CuttingMode', 'RestApiErrorCode', 'FileNameTemplateStatus', 'AllowedAddressFamily']) {
      expect(s[name], name).toMatchObject({ type: 'integer', enum: expect.any(Array) });
    }
    expect(s.RecordMode.enum).toEqual([0, 1]);
    expect(s.CuttingMode.enum).toEqual([0, 1, 2]);
    expect(s.FileNameTemplateStatus.enum).toEqual([0, 1, 2, 3]);
    expect(s.RestApiErrorCode.enum).toEqual(expect.arrayContaining([-1, -2, -3, -4]));
    expect(s.GlobalConfigDto.properties.optionalRecordMode.properties.value).toEqual({ $ref: `${PREFIX}RecordMode` });
    expect(s.RoomConfigDto.properties.optionalCuttingMode.properties.value).toEqual({ $ref: `${PREFIX}CuttingMode` });
    expect(s.DefaultConfig.properties.recordMode.$ref).toBe(`${PREFIX}RecordMode`);
    expect(s.RestApiError.properties.code).toEqual({ $ref: `${PREFIX}RestApiErrorCode` });
    expect(s.FileNameTemplateOutput.properties.status).toEqual({ $ref: `${PREFIX}FileNameTemplateStatus` });
    for (const dto of ['RoomRecordingStatsDto', 'RoomIOStatsDto']) {
      for (const [k, v] of Object.entries(s[dto].properties as Json)) {
        expect((v as Json).type ?? (v as Json).$ref, `${dto}.${k}`).toBeDefined();
        if ((v as Json).type === 'number') {
          expect((v as Json).format, `${dto}.${k}`).toBe('double');
          expect((v as Json).description, `${dto}.${k}`).toContain('"NaN"');
        }
      }
    }
    expect(s.RoomRecordingStatsDto.properties.durationRatio).toMatchObject({ type: 'number', format: 'double' });
  });

  it('GenerateFileNameInput.context is nullable and optional, and the server takes null', async () => {
    const input = doc.components.schemas.GenerateFileNameInput;
    expect(input.required ?? []).not.toContain('context');
    expect(input.properties.context.$ref).toBe(`${PREFIX}FileNameTemplateContextDto`);
    expect(doc.components.schemas.FileNameTemplateContextDto.nullable).toBe(true);
    const res = await fx.call('POST', '/api/misc/generatefilename', { template: '{{ roomId }}-x', context: null });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).relativePath).toBe('0-x.flv');
  });
});
