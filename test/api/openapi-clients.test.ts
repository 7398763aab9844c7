// The OpenAPI documents through the code generators users run: openapi-typescript on /swagger/brec/swagger.json, and
// brec SDK's generator (bililive-rec-sdk.js api-generator) on /swagger/brec-sdk/swagger.json; the output must compile.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type ApiFixture } from './fixture.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const PREFIX = '#/components/schemas/';
const dir = mkdtempSync(join(tmpdir(), 'liverec-openapi-'));

/** tsc --strict --noEmit over the files: every diagnostic as text. */
function typeCheck(files: Record<string, string>): string[] {
  const paths = Object.entries(files).map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
  const program = ts.createProgram(paths, {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: [], skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName.slice(dir.length + 1) ?? ''}:${d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

/**
 * The TypeScript brec SDK's generator writes for components/schemas, by its rules: an object schema becomes an
 * interface whose member names are written as they stand and are all required ({hasValue, value} objects become
 * BlOptional<T>); an enum becomes a union; any other schema gets no declaration, so a $ref to it names nothing;
 * what it cannot read (no type: anyOf, oneOf, allOf) becomes `unknown`, collected in `problems`.
 */
function sdkGenerator(schemas: Json, problems: string[]): string {
  const optionalAlias = new Map<string, string>();
  const type = (def: Json, at: string, depth = 0): string => {
    if (def?.type === 'array') return `${type(def.items, `${at}[]`, depth + 1)}[]`;
    if (def?.$ref) return String(def.$ref).startsWith(PREFIX) ? optionalAlias.get(def.$ref.slice(PREFIX.length)) ?? def.$ref.slice(PREFIX.length) : (problems.push(`${at}: $ref ${def.$ref}`), 'unknown');
    if (!def || !('type' in def)) return (problems.push(`${at}: no type`), 'unknown');
    if (def.type === 'object') {
      const props = def.properties as Json;
      if (props && Object.keys(props).length === 2 && props.hasValue?.type === 'boolean' && props.value) return `BlOptional<${type(props.value, `${at}.value`, depth + 1)}>`;
      if (!props) return (problems.push(`${at}: object without properties`), 'unknown');
      const pad = '  '.repeat(depth + 1);
      return `{\n${Object.entries(props).map(([k, v]) => `${pad}${k}: ${type(v, `${at}.${k}`, depth + 1)};`).join('\n')}\n${'  '.repeat(depth)}}`;
    }
    if (def.enum) return def.type === 'integer' ? def.enum.join(' | ') : def.type === 'string' ? def.enum.map((e: string) => `"${e}"`).join(' | ') : (problems.push(`${at}: enum of ${def.type}`), 'unknown');
    if (def.type === 'boolean') return 'boolean';
    if (def.type === 'integer' || def.type === 'number') return 'number';
    if (def.type === 'string') return 'string';
    return (problems.push(`${at}: type ${def.type}`), 'unknown');
  };
  const declare = (name: string, schema: Json): string => {
    const t = type(schema, name);
    if (t.startsWith('BlOptional<')) return (optionalAlias.set(name, t), '');
    if (schema.type === 'object') return `export interface ${name} ${t}`;
    return schema.enum ? `export type ${name} = ${t};` : '';
  };
  Object.entries(schemas).forEach(([name, schema]) => declare(name, schema)); // a first pass learns the BlOptional aliases
  return ['export interface BlOptional<T> {\n  hasValue: boolean;\n  value: null | T;\n}',
    ...Object.entries(schemas).map(([name, schema]) => declare(name, schema)).filter(Boolean)].join('\n\n');
}

describe('code generated from the OpenAPI documents', () => {
  let fx: ApiFixture;
  let brec: Json;
  let sdk: Json;
  beforeAll(async () => {
    fx = await startFixture({ rooms: [] });
    brec = await (await fetch(`${fx.url}/swagger/brec/swagger.json`)).json();
    sdk = await (await fetch(`${fx.url}/swagger/brec-sdk/swagger.json`)).json();
  });
  afterAll(async () => {
    await fx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('openapi-typescript on /swagger/brec/swagger.json: the types compile, and a client uses them', async () => {
    const types = astToString(await openapiTS(brec));
    const use = [
      "import type { components, paths } from './brec';",
      "type Room = paths['/api/room/{roomId}']['get']['responses'][200]['content']['application/json'];",
      "export const id = (r: Room): number => r.roomId;",
      "export const folder = (f: components['schemas']['FileApiResult']['files'][number]): boolean => f.isFolder;",
      "export const log = (e: components['schemas']['JsonLogEntry']): string => e['@mt'];",
    ].join('\n');
    expect(typeCheck({ 'brec.ts': types, 'brec-use.ts': use })).toEqual([]);
  }, 120_000);

  it("brec SDK's generator on /swagger/brec-sdk/swagger.json: quoted CLEF names, every named schema declared, FileLikeDto an object, liverec's extensions optional; the SDK's Room compiles", () => {
    const schemas = sdk.components.schemas as Json;
    const problems: string[] = [];
    const types = sdkGenerator(schemas, problems);
    expect(problems).toEqual([]);
    // Every $ref names a schema the generator declares (an object or an enum): no DateTimeOffset left undeclared.
    const refs = [...JSON.stringify(sdk).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.filter((name) => !schemas[name] || (schemas[name].type !== 'object' && !schemas[name].enum))).toEqual([]);
    expect(JSON.stringify(schemas)).not.toMatch(/"(anyOf|oneOf|allOf)"/);
    expect(types).toMatch(/"@t": string;/);
    expect(types).toMatch(/"@l"\?: string;/);
    expect(types).toMatch(/export interface FileLikeDto \{/);
    const use = [
      "import type { FileApiResult, JsonLogEntry, RoomDto, RoomIOStatsDto, RoomRecordingStatsDto } from './sdk-types';",
      'declare const stats: RoomRecordingStatsDto;',
      'declare const io: RoomIOStatsDto;',
      "// brec SDK's class: brec's members only.",
      'export class Room implements RoomDto {',
      "  objectId = ''; roomId = 1; autoRecord = true; shortId = 0; name = ''; title = ''; areaNameParent = ''; areaNameChild = '';",
      '  recording = false; streaming = false; danmakuConnected = false; autoRecordForThisSession = true; recordingStats = stats; ioStats = io;',
      '}',
      "export const entry: JsonLogEntry = { '@t': '2024-03-17T04:34:56.123+00:00', '@mt': 'x' };",
      "export const folder: FileApiResult['files'][number] = { isFolder: true, name: 'a', lastModified: '2024-03-17T04:34:56+00:00' };",
      "export const file: FileApiResult['files'][number] = { isFolder: false, name: 'a.flv', lastModified: '2024-03-17T04:34:56+00:00', size: 1, url: '/file/a.flv' };",
    ].join('\n');
    expect(typeCheck({ 'sdk-types.ts': types, 'sdk-use.ts': use })).toEqual([]);
  });

  it('the SDK view differs from the full document only in form: same paths as brec knows them, same wire members', () => {
    expect(Object.keys(sdk.paths).every((p) => p in brec.paths)).toBe(true);
    const bare = (k: string): string => k.replace(/\?$/, '').replace(/^"(.*)"$/, '$1');
    for (const [name, schema] of Object.entries(sdk.components.schemas as Json)) {
      const full = brec.components.schemas[name] as Json;
      const members = (s: Json): string[] => Object.keys(s?.properties ?? {}).map(bare).sort();
      if (full.properties) expect(members(schema), name).toEqual(members(full));
    }
    expect(Object.keys(brec.components.schemas.RoomDto.properties)).toContain('recordingCodec');
    expect(brec.components.schemas.RoomDto.required).toContain('recordingCodec'); // always sent: required where a generator can say so
  });
});
