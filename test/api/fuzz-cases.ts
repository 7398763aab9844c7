// Seeded random and malformed API requests for the fuzz test; every destructive request stays inside the room pool.
import { FIELDS, GLOBAL_FIELDS, ROOM_FIELDS, type FieldName } from '../../src/config/fields.js';

export interface FuzzOptions {
  requests: number;
  seed: number;
  concurrency?: number;
  /** Room ids the fuzz may add, delete and reconfigure (kept small: every added room is a worker thread). */
  roomPool: number[];
  /** Rooms the fuzz may only read: never deleted, stopped, split, refreshed or reconfigured. */
  protectedRoomIds: number[];
  /** objectIds of existing rooms, so the GUID forms hit real rooms too. */
  objectIds?: string[];
}

export interface FuzzCase {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body chunked (no Content-Length). */
  chunked?: boolean;
  /** The documented operation this case aims at, when it does. */
  operation?: { method: string; template: string };
}

type Rng = () => number;
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const chance = (rng: Rng, p: number): boolean => rng() < p;

const METHODS = ['GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND', 'FOO'];
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', 'application/merge-patch+json', 'application/json; charset=latin1', 'garbage', ''];
const WEIRD_SEGMENTS = ['..', '.', '%2e%2e', '%2E%2e%2f', '%00', '%ff', '%', '%zz', '..%5c', '~', '*', '{id}', ':id', '😀', '中文', 'a'.repeat(300),
  '%252e%252e', ';', ',', '$', 'null', 'undefined', 'NaN', '-0', '1e3', '0x10'];
const ROUTE_SUFFIXES = ['', '/stats', '/ioStats', '/iostats', '/config', '/start', '/stop', '/split', '/refresh', '/nope', '/config/x'];
const SAFE_KEYS = ['a', 'b', 'template', 'context', 'json', 'hasValue', 'value', 'autoRecord', 'optionalCookie', 'x'.repeat(40), '__proto__', 'constructor'];

function randomJson(rng: Rng, depth = 0): unknown {
  const r = rng();
  if (depth > 4 || r < 0.3) return pick(rng, [null, true, false, 0, -1, 1.5, 2147483648, -2147483649, 1e308, '', 'x', 'NaN', '"', '\u0000', '中文']);
  if (r < 0.55) return Array.from({ length: Math.floor(rng() * 4) }, () => randomJson(rng, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(rng() * 4); i > 0; i--) o[pick(rng, SAFE_KEYS)] = randomJson(rng, depth + 1);
  return o;
}

function wrongValue(rng: Rng, field: FieldName): unknown {
  const kind = FIELDS[field].kind;
  const bad: unknown[] = kind === 'bool' ? ['true', 1, null, {}] : kind === 'string' ? [1, true, {}, []] : ['1', true, -1, 1.5, 2 ** 40, null, {}];
  return pick(rng, bad);
}

function malformedJson(rng: Rng): string {
  return pick(rng, ['{', '{"roomId":', '[1,2', '{"a":1,}', "{'roomId':1}", '{"roomId":1}{}', 'nul', '\u0000\u0001', '{"a":"\\x"}',
    '{"a":1e999999}', `${'['.repeat(5000)}${']'.repeat(5000)}`, `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`, '\uFEFF{}', '{"roomId":1']);
}

function idForm(rng: Rng, o: FuzzOptions, forWrite: boolean): string {
  const pool = forWrite ? o.roomPool : [...o.roomPool, ...o.protectedRoomIds];
  const guid = o.objectIds?.length && !forWrite ? pick(rng, o.objectIds) : '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
  return pick(rng, [String(pick(rng, pool)), String(pick(rng, pool)), '0', '-1', '4242', '2147483648', '99999999999999999999', 'abc', ' 1', '1.0',
    guid, guid.toUpperCase(), guid.replace(/-/g, ''), `{${guid}}`, `(${guid})`, `%7B${guid}%7D`, pick(rng, WEIRD_SEGMENTS)]);
}

function configBody(rng: Rng, fields: readonly FieldName[], allowValid: boolean): unknown {
  const body: Record<string, unknown> = {};
  for (let i = 1 + Math.floor(rng() * 3); i > 0; i--) {
    const f = pick(rng, fields);
    const key = chance(rng, 0.1) ? `Optional${f}` : `optional${f}`;
    body[key] = pick(rng, [
      { hasValue: true, value: wrongValue(rng, f) }, { hasValue: 'yes', value: FIELDS[f].default }, 42, 'x', [],
      { hasValue: true, value: randomJson(rng) },
    ]);
  }
  // Valid changes only to UI-only fields, so the fuzz cannot reconfigure the recording of protected rooms.
  if (allowValid && chance(rng, 0.3)) body.optionalWpfShowTitleAndArea = pick(rng, [{ hasValue: true, value: chance(rng, 0.5) }, { hasValue: false }, null]);
  return body;
}

/** One random request. Every destructive request is confined to roomPool. */
export function generateCase(rng: Rng, o: FuzzOptions): FuzzCase {
  const headers: Record<string, string> = {};
  const json = (v: unknown): Buffer => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
  const r = rng();
  let c: FuzzCase;
  if (r < 0.12) {
    const suffix = pick(rng, ['', '/stats', '/iostats', '/config']);
    c = { method: 'GET', path: `/api/room/${idForm(rng, o, false)}${suffix}`, headers, operation: { method: 'GET', template: `/api/room/{id}${suffix}` } };
  } else if (r < 0.2) {
    const action = pick(rng, ['start', 'stop', 'split', 'refresh']);
    c = { method: 'POST', path: `/api/room/${idForm(rng, o, true)}/${action}`, headers, operation: { method: 'POST', template: `/api/room/{id}/${action}` } };
    if (chance(rng, 0.3)) c.body = json(randomJson(rng));
  } else if (r < 0.28) {
    const body = pick(rng, [{ roomId: pick(rng, o.roomPool), autoRecord: chance(rng, 0.5) }, { roomId: pick(rng, [0, -5, 'x', 1.5, null, 2 ** 31, [1]]) }, randomJson(rng)]);
    c = { method: 'POST', path: pick(rng, ['/api/room', '/api/room/', '/API/Room']), headers, body: json(body), operation: { method: 'POST', template: '/api/room' } };
  } else if (r < 0.32) {
    c = { method: 'DELETE', path: `/api/room/${idForm(rng, o, true)}`, headers, operation: { method: 'DELETE', template: '/api/room/{id}' } };
  } else if (r < 0.42) {
    c = { method: 'POST', path: '/api/config/global', headers, body: json(configBody(rng, GLOBAL_FIELDS, true)), operation: { method: 'POST', template: '/api/config/global' } };
  } else if (r < 0.48) {
    c = { method: 'POST', path: `/api/room/${idForm(rng, o, true)}/config`, headers, body: json(chance(rng, 0.5) ? configBody(rng, ROOM_FIELDS, false) : { autoRecord: randomJson(rng) }), operation: { method: 'POST', template: '/api/room/{id}/config' } };
  } else if (r < 0.54) {
    const template = pick(rng, ['{{ roomId }}/{{ title }}', '{{ roomId', '{% random 99999 %}', '{% for i in (1..99999999) %}x{% endfor %}',
      '{{ "now" | format_date: "ffffffff" }}', '{% include "/etc/passwd" %}', '../../x', '/etc/x', '{{ json.a.b.c }}', null, 5, '']);
    const body = pick(rng, [{ template, context: { roomId: 1, json: pick(rng, ['{}', '{bad', '[]', '1', null, 5]) } }, { template }, randomJson(rng), { template, context: randomJson(rng) }]);
    c = { method: 'POST', path: pick(rng, ['/api/misc/generateFileName', '/api/misc/generatefilename']), headers, body: json(body), operation: { method: 'POST', template: '/api/misc/generatefilename' } };
  } else if (r < 0.6) {
    const query = pick(rng, ['', '?path=/', '?path=', '?path=..', '?path=%2e%2e%2f', '?path=/etc', '?path=a&path=b', '?path=%ff', '?path=' + 'a/'.repeat(200), '?path=%00']);
    c = { method: 'GET', path: `/api/file${query}`, headers, operation: { method: 'GET', template: '/api/file' } };
  } else if (r < 0.64) {
    const query = pick(rng, ['', '?after=0', '?after=1', '?after=-1', '?after=abc', '?after=1e5', '?after=99999999999999999999', '?after=1&after=2']);
    c = { method: 'GET', path: `/api/log/fetch${query}`, headers, operation: { method: 'GET', template: '/api/log/fetch' } };
  } else if (r < 0.68) {
    const p = pick(rng, ['/api/version', '/api/config/default', '/api/config/global', '/api/room', '/api/webhook/deliveries']);
    c = { method: 'GET', path: p, headers, operation: { method: 'GET', template: p } };
  } else if (r < 0.78) {
    const segs = Array.from({ length: 1 + Math.floor(rng() * 4) }, () => pick(rng, WEIRD_SEGMENTS));
    const root = pick(rng, ['/api', '/api/room', '/file', '/swagger', '', '/API/ROOM/1', '/swagger/assets/swagger-ui-dist']);
    c = { method: pick(rng, METHODS), path: `${root}/${segs.join('/')}`, headers };
  } else if (r < 0.86) {
    const p = pick(rng, ['/api/room', '/api/config/global', `/api/room/${idForm(rng, o, true)}/config`, '/api/misc/generatefilename', '/api/room/1/start']);
    c = { method: pick(rng, ['POST', 'PUT', 'PATCH', 'DELETE']), path: p, headers, body: Buffer.from(malformedJson(rng)) };
  } else if (r < 0.93) {
    const p = pick(rng, ['/api/room', `/api/room/${idForm(rng, o, true)}`, '/api/version', '/file/config.json', '/swagger/', '/api/config/global']);
    c = { method: pick(rng, METHODS), path: p, headers };
    if (c.method !== 'GET' && c.method !== 'HEAD' && chance(rng, 0.5)) c.body = json(randomJson(rng));
  } else if (r < 0.94) {
    // Over the 1 MiB limit, declared or chunked.
    c = { method: 'POST', path: pick(rng, ['/api/room', '/api/config/global', '/api/misc/generatefilename']), headers,
      body: Buffer.alloc(1024 * 1024 + 1 + Math.floor(rng() * 300_000), '{'), chunked: chance(rng, 0.5) };
  } else {
    c = { method: 'GET', path: pick(rng, ['/file/config.json', '/file/', '/file/nope.flv']), headers };
    headers.range = pick(rng, ['bytes=0-10', 'bytes=-5', 'bytes=99999-', 'bytes=5-1', 'bytes=a-b', 'bytes=0-1,2-3', 'bytes=', `bytes=0-${'9'.repeat(30)}`]);
  }
  // Dot segments are resolved by URL parsing before routing (/api/room/. is /api/room/), so the aimed operation is moot.
  if (c.operation && /\/(?:\.|%2e){1,2}(?:\/|\?|$)/i.test(c.path)) delete c.operation;
  // Header noise on any request.
  if (c.body && chance(rng, 0.85)) headers['content-type'] = pick(rng, CONTENT_TYPES);
  if (chance(rng, 0.1)) headers.origin = pick(rng, ['http://evil.example', 'null', 'http://192.168.1.2:8080']);
  if (chance(rng, 0.05)) headers['access-control-request-method'] = pick(rng, ['POST', 'DELETE', 'X']);
  if (chance(rng, 0.05)) headers.authorization = pick(rng, ['Basic', 'Basic !!!', 'Bearer x', `Basic ${'A'.repeat(2000)}`]);
  if (chance(rng, 0.05)) headers.accept = pick(rng, ['text/html', '*/*', 'application/xml', '']);
  if (chance(rng, 0.03)) headers['content-encoding'] = pick(rng, ['gzip', 'br', 'x']);
  return c;
}
