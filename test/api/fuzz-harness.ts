// API fuzzing: seeded random and malformed requests (methods, paths, bodies, headers, sizes), checked for no 5xx,
// JSON error bodies, and the documented schema wherever the document covers the answer. Background work (e.g. a
// running recording) can run alongside and be checked afterwards — see BackgroundWork and fuzzAlongside.
import { connect } from 'node:net';
import { FIELDS, GLOBAL_FIELDS, ROOM_FIELDS, type FieldName } from '../../src/config/fields.js';
import type { SchemaChecker } from './schema-check.js';

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

export interface FuzzReport {
  sent: number;
  byStatus: Record<number, number>;
  /** 5xx answers, hangs and transport errors. */
  failures: string[];
  /** Answers that contradict the document or the JSON error convention. */
  violations: string[];
}

/** Work that runs while the fuzz runs, checked afterwards (the recorder engineer plugs a live recording in here). */
export interface BackgroundWork {
  name: string;
  start(): Promise<void>;
  /** Throws if the fuzz harmed the work. */
  assertUnharmed(): Promise<void>;
  stop(): Promise<void>;
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
    const p = pick(rng, ['/api/room', `/api/room/${idForm(rng, o, false)}`, '/api/version', '/file/config.json', '/swagger/', '/api/config/global']);
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
  // Header noise on any request.
  if (c.body && chance(rng, 0.85)) headers['content-type'] = pick(rng, CONTENT_TYPES);
  if (chance(rng, 0.1)) headers.origin = pick(rng, ['http://evil.example', 'null', 'http://192.168.1.2:8080']);
  if (chance(rng, 0.05)) headers['access-control-request-method'] = pick(rng, ['POST', 'DELETE', 'X']);
  if (chance(rng, 0.05)) headers.authorization = pick(rng, ['Basic', 'Basic !!!', 'Bearer x', `Basic ${'A'.repeat(2000)}`]);
  if (chance(rng, 0.05)) headers.accept = pick(rng, ['text/html', '*/*', 'application/xml', '']);
  if (chance(rng, 0.03)) headers['content-encoding'] = pick(rng, ['gzip', 'br', 'x']);
  return c;
}

interface RawAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

function decodeChunked(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = Number.parseInt(data.subarray(i, eol).toString(), 16);
    if (!size) break;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** Parses one HTTP/1.1 response (the server closes the connection after it: we send Connection: close). */
export function parseRawResponse(data: Buffer): RawAnswer {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete response (${data.length} bytes received)`);
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1] ?? 0);
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  let body = data.subarray(end + 4);
  if (headers.get('transfer-encoding') === 'chunked') body = decodeChunked(body);
  else if (headers.has('content-length')) body = body.subarray(0, Number(headers.get('content-length')));
  return { status, contentType: headers.get('content-type') ?? '', body };
}

/** Sends the request bytes exactly (any method, unescaped path, any header) over a fresh connection. */
function send(url: string, c: FuzzCase): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(20_000, () => socket.destroy(new Error('timed out after 20 s')));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // The server may answer an oversized body with 413 and close while we are still writing: a correct refusal.
      if (chunks.length && (err.code === 'EPIPE' || err.code === 'ECONNRESET')) return;
      reject(err);
    });
    socket.on('close', () => {
      try {
        resolve(parseRawResponse(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    });
    const head = [`${c.method} ${c.path} HTTP/1.1`, `Host: ${c.headers.host ?? `${hostname}:${port}`}`, 'Connection: close'];
    for (const [k, v] of Object.entries(c.headers)) if (k !== 'host') head.push(`${k}: ${v}`);
    if (c.body && !c.chunked) head.push(`Content-Length: ${c.body.length}`);
    if (c.body && c.chunked) head.push('Transfer-Encoding: chunked');
    socket.write(Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'utf8'));
    if (c.body && c.chunked) {
      for (let i = 0; i < c.body.length; i += 64 * 1024) {
        const part = c.body.subarray(i, i + 64 * 1024);
        socket.write(`${part.length.toString(16)}\r\n`);
        socket.write(part);
        socket.write('\r\n');
      }
      socket.write('0\r\n\r\n');
    } else if (c.body) socket.write(c.body);
  });
}

function describeCase(c: FuzzCase): string {
  const body = c.body ? ` body(${c.body.length}${c.chunked ? ', chunked' : ''}): ${c.body.subarray(0, 120).toString()}` : '';
  return `${c.method} ${c.path.slice(0, 200)} ${JSON.stringify(c.headers).slice(0, 200)}${body}`;
}

/** Sends `requests` random cases with bounded concurrency and checks every answer. */
export async function runApiFuzz(url: string, checker: SchemaChecker, o: FuzzOptions): Promise<FuzzReport> {
  const rng = mulberry32(o.seed);
  const report: FuzzReport = { sent: 0, byStatus: {}, failures: [], violations: [] };
  const cases = Array.from({ length: o.requests }, () => generateCase(rng, o));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const c = cases[next++]!;
      let res: Awaited<ReturnType<typeof send>>;
      try {
        res = await send(url, c);
      } catch (err) {
        report.failures.push(`${describeCase(c)} → ${(err as Error).message}`);
        continue;
      }
      report.sent++;
      report.byStatus[res.status] = (report.byStatus[res.status] ?? 0) + 1;
      if (res.status >= 500) report.failures.push(`${describeCase(c)} → ${res.status} ${res.body.subarray(0, 300).toString()}`);
      const isApi = /^\/api(\/|\?|$)/i.test(c.path);
      const plainAnswer = res.status === 204 || res.status === 304 || res.status === 412 || c.method === 'HEAD' || res.body.length === 0;
      if (isApi && !plainAnswer) {
        if (res.contentType !== 'application/json; charset=utf-8') {
          report.violations.push(`${describeCase(c)} → ${res.status} with content-type ${res.contentType}`);
          continue;
        }
        let body: unknown;
        try {
          body = JSON.parse(res.body.toString());
        } catch {
          report.violations.push(`${describeCase(c)} → ${res.status} body is not JSON`);
          continue;
        }
        if (res.status >= 400 && (typeof (body as { code?: unknown }).code !== 'number' || typeof (body as { message?: unknown }).message !== 'string')) {
          report.violations.push(`${describeCase(c)} → ${res.status} error body without {code, message}`);
        }
        if (c.operation) {
          const schema = checker.responseSchema(c.operation.method, c.operation.template, res.status);
          // Routing answers (404 no such path, 405, 413, 415, 401) are not per-operation and not in the document.
          if (schema) {
            const errors = checker.check(schema, body);
            if (errors.length) report.violations.push(`${describeCase(c)} → ${res.status}: ${errors.slice(0, 3).join('; ')}`);
          }
        }
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency ?? 16 }, worker));
  return report;
}

/** Starts every background work, fuzzes, then checks each work was unharmed (and stops it). */
export async function fuzzAlongside(url: string, checker: SchemaChecker, o: FuzzOptions, background: BackgroundWork[]): Promise<FuzzReport> {
  for (const w of background) await w.start();
  try {
    const report = await runApiFuzz(url, checker, o);
    for (const w of background) await w.assertUnharmed();
    return report;
  } finally {
    for (const w of background) await w.stop();
  }
}
