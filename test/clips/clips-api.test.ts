// The clips API on the real service: POST /api/clips runs a durable clip job (listed by /api/clips and /api/jobs),
// the heat endpoint's counts add up to the XML's elements, suggestions are the windows with the most danmaku (a
// known pattern), markers survive a restart, and every path stays inside the work directory.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { initLogger } from '../../src/log/logger.js';
import { startService, type Service } from '../../src/service.js';
import { probe } from '../support/media-tools.js';
import { eventually } from '../web/setup.js';
import { clipPattern, countElements, sourceFlv, writeXml, type Item } from './fixtures.js';

const workDir = mkdtempSync(join(tmpdir(), 'liverec-clips-api-'));
const folder = join(workDir, '23058-n');
const rec = join(folder, 'rec.flv');
const sha = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');

async function start(): Promise<Service> {
  initLogger({ level: process.env.LIVEREC_LOG_LEVEL ?? 'error' });
  const config = ConfigStore.load(workDir);
  config.global.LiveApiHost = 'http://127.0.0.1:9';
  return startService({ workDir, config, api: { bind: 'http://127.0.0.1:0', env: {} } });
}

let service: Service;
let url: string;
const call = (method: string, path: string, body?: unknown): Promise<Response> =>
  fetch(url + path, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: body === undefined ? {} : { 'content-type': 'application/json' } });
const json = async <T>(r: Response): Promise<T> => (await r.json()) as T;

/** A burst of `n` comments every 0.1 s from `at`, and one comment every 10 s from 5 s to 295 s. */
function burstPattern(): Item[] {
  const items: Item[] = [];
  const burst = (at: number, n: number, tag: string): void => {
    for (let k = 0; k < n; k++) items.push({ kind: k % 10 === 9 ? 'gift' : 'd', t: at + k * 0.1, text: `${tag}${k}` });
  };
  burst(100, 30, 'A');
  burst(50, 20, 'B');
  burst(200, 10, 'C');
  for (let t = 5; t < 300; t += 10) items.push({ kind: 'd', t });
  return items.sort((a, b) => a.t - b.t);
}

beforeAll(async () => {
  mkdirSync(folder, { recursive: true });
  sourceFlv(rec);
  writeXml(join(folder, 'rec.xml'), clipPattern());
  mkdirSync(join(workDir, 'burst'), { recursive: true });
  sourceFlv(join(workDir, 'burst', 'b.flv'));
  writeXml(join(workDir, 'burst', 'b.xml'), burstPattern());
  service = await start();
  url = service.api!.url;
}, 60_000);

afterAll(async () => {
  await service?.close();
  rmSync(workDir, { recursive: true, force: true });
});

interface Clip { id: string; path: string; state: string; output: string | null; danmakuXml: string | null; danmakuAss: string | null; error: string | null }

describe('POST /api/clips', () => {
  it('queues a clip job that writes the MP4, XML and ASS beside the source and leaves the source untouched', async () => {
    const before = sha(rec);
    const res = await call('POST', '/api/clips', { path: '23058-n/rec.flv', startMs: 5000, endMs: 12000 });
    expect(res.status).toBe(202);
    const queued = await json<Clip>(res);
    expect(queued.path).toBe('23058-n/rec.flv');
    const done = await eventually('the clip job done', async () => (await json<Clip[]>(await call('GET', '/api/clips'))).find((c) => c.id === queued.id && (c.state === 'done' || c.state === 'failed')), 60_000);
    expect(done.error).toBeNull();
    expect(done.state).toBe('done');
    expect(done.output).toBe('23058-n/rec.clip-5000-12000.mp4');
    expect(done.danmakuXml).toBe('23058-n/rec.clip-5000-12000.xml');
    expect(done.danmakuAss).toBe('23058-n/rec.clip-5000-12000.ass');
    const p = await probe(join(workDir, done.output!));
    expect(p.errors).toBe('');
    expect(Math.abs(p.duration - 7)).toBeLessThanOrEqual(0.96);
    expect(sha(rec)).toBe(before);
    const jobs = await json<{ kind: string; relativePath: string; state: string; output: string }[]>(await call('GET', '/api/jobs'));
    expect(jobs.find((j) => j.kind === 'clip')).toMatchObject({ relativePath: '23058-n/rec.flv', state: 'done', output: '23058-n/rec.clip-5000-12000.mp4' });
  }, 90_000);

  it('refuses bad ranges (400) and paths outside the work directory or missing (404), with the error shape', async () => {
    const bad = await call('POST', '/api/clips', { path: '23058-n/rec.flv', startMs: 9000, endMs: 4000 });
    expect(bad.status).toBe(400);
    expect(await json<{ code: number }>(bad)).toMatchObject({ code: -10 });
    expect((await call('POST', '/api/clips', { path: '23058-n/rec.flv', startMs: -1, endMs: 4000 })).status).toBe(400);
    expect((await call('POST', '/api/clips', { path: '23058-n/rec.flv', startMs: 0, endMs: 4000, format: 'mkv' })).status).toBe(400);
    for (const path of ['../etc/passwd', '/etc/passwd', '23058-n/../../x.flv', '23058-n/none.flv', '23058-n/rec.xml', '.liverec/post-jobs.jsonl']) {
      const r = await call('POST', '/api/clips', { path, startMs: 0, endMs: 4000 });
      expect(r.status, path).toBe(404);
      expect(await json<{ code: number }>(r)).toMatchObject({ code: -12 });
    }
  });
});

describe('a clip the file cannot give', () => {
  it('fails at once with CLIP_EMPTY\'s reason (a refusal is not retried like a passing failure)', async () => {
    const res = await call('POST', '/api/clips', { path: '23058-n/rec.flv', startMs: 600_000, endMs: 610_000 });
    expect(res.status).toBe(202);
    const { id } = await json<Clip>(res);
    const ended = await eventually('the clip job to fail or wait for a retry', async () => (await json<Clip[]>(await call('GET', '/api/clips'))).find((c) => c.id === id && (c.state === 'retrying' || c.state === 'failed')), 60_000);
    expect(ended.state).toBe('failed');
    expect(ended.error).toMatch(/no video keyframe/);
    const jobs = await json<{ id: string; attempts: number }[]>(await call('GET', '/api/jobs'));
    expect(jobs.find((j) => j.id === id)?.attempts).toBe(1);
  }, 90_000);
});

describe('GET /api/file/danmaku-density', () => {
  it('counts every element of the XML once: the buckets add up to the XML\'s elements', async () => {
    const raw = countElements(readFileSync(join(folder, 'rec.xml'), 'utf8'));
    for (const bucketS of [1, 10, 3.5]) {
      const res = await call('GET', `/api/file/danmaku-density?path=${encodeURIComponent('23058-n/rec.flv')}&bucketS=${bucketS}`);
      expect(res.status).toBe(200);
      const d = await json<{ path: string; bucketS: number; buckets: { startS: number; danmaku: number; superChats: number; gifts: number; guards: number }[]; totals: Record<string, number> }>(res);
      expect(d.path).toBe('23058-n/rec.xml');
      const sum = (k: 'danmaku' | 'superChats' | 'gifts' | 'guards'): number => d.buckets.reduce((s, b) => s + b[k], 0);
      expect({ d: sum('danmaku'), sc: sum('superChats'), gift: sum('gifts'), guard: sum('guards') }).toEqual(raw);
      expect(d.totals).toEqual({ danmaku: raw.d, superChats: raw.sc, gifts: raw.gift, guards: raw.guard });
      expect(d.buckets[0]!.startS).toBe(0);
      expect(d.buckets[1]!.startS).toBeCloseTo(bucketS, 6);
    }
    // The burst at 14–14.95 s lands in the 10 s bucket starting at 10 s, with the comments every 0.5 s from 10 s to 19 s.
    const d = await json<{ buckets: { danmaku: number }[] }>(await call('GET', '/api/file/danmaku-density?path=23058-n/rec.xml'));
    expect(d.buckets[1]!.danmaku).toBe(20 + 19);
  });

  it('answers 404 without an XML or outside the work directory, 400 for a bad bucket', async () => {
    expect((await call('GET', '/api/file/danmaku-density?path=23058-n/rec.clip-none.flv')).status).toBe(404);
    expect((await call('GET', '/api/file/danmaku-density?path=../x.xml')).status).toBe(404);
    expect((await call('GET', '/api/file/danmaku-density?path=23058-n/rec.flv&bucketS=0')).status).toBe(400);
    expect((await call('GET', '/api/file/danmaku-density?path=23058-n/rec.flv&bucketS=abc')).status).toBe(400);
  });
});

describe('GET /api/clips/suggestions', () => {
  it('offers the windows with the most danmaku, best first, without overlap', async () => {
    const res = await call('GET', '/api/clips/suggestions?path=burst/b.flv&windowS=10&count=3');
    expect(res.status).toBe(200);
    const s = await json<{ suggestions: { startMs: number; endMs: number; count: number }[] }>(res);
    expect(s.suggestions).toHaveLength(3);
    const [a, b, c] = s.suggestions;
    // Each burst whole inside its window, plus the one background comment every window of 10 s holds.
    expect(a).toMatchObject({ count: 31 });
    expect(a!.startMs).toBeLessThanOrEqual(100_000);
    expect(a!.endMs).toBeGreaterThan(102_900);
    expect(b).toMatchObject({ count: 21 });
    expect(b!.startMs).toBeLessThanOrEqual(50_000);
    expect(b!.endMs).toBeGreaterThan(51_900);
    expect(c).toMatchObject({ count: 11 });
    expect(c!.startMs).toBeLessThanOrEqual(200_000);
    expect(c!.endMs).toBeGreaterThan(200_900);
    for (const w of s.suggestions) expect(w.endMs - w.startMs).toBe(10_000);
    // A suggestion is accepted as a clip as it is.
    const accepted = await call('POST', '/api/clips', { path: 'burst/b.flv', startMs: 5000, endMs: 15000, danmaku: false });
    expect(accepted.status).toBe(202);
  });
});

describe('markers', () => {
  it('are added, listed by time and removed; stored in <name>.markers.json; the danmaku XML untouched; survive a restart', async () => {
    const xmlBefore = sha(join(folder, 'rec.xml'));
    const m1 = await json<{ id: string; atMs: number }>(await call('POST', '/api/file/markers', { path: '23058-n/rec.flv', atMs: 9000, label: '高能' }));
    const m2 = await json<{ id: string }>(await call('POST', '/api/file/markers', { path: '23058-n/rec.flv', atMs: 3000 }));
    const m3 = await json<{ id: string }>(await call('POST', '/api/file/markers', { path: '23058-n/rec.flv', atMs: 15000, label: 'end' }));
    expect(m1.atMs).toBe(9000);
    const del = await call('DELETE', `/api/file/markers/${m3.id}?path=23058-n/rec.flv`);
    expect(del.status).toBe(200);
    expect(existsSync(join(folder, 'rec.markers.json'))).toBe(true);
    expect(sha(join(folder, 'rec.xml'))).toBe(xmlBefore);
    await service.close();
    service = await start();
    url = service.api!.url;
    const list = await json<{ markers: { id: string; atMs: number; label: string }[] }>(await call('GET', '/api/file/markers?path=23058-n/rec.flv'));
    expect(list.markers.map((m) => [m.id, m.atMs, m.label])).toEqual([[m2.id, 3000, ''], [m1.id, 9000, '高能']]);
  }, 60_000);

  it('refuses a negative time, a long label, a missing file, a path outside; 404 for an unknown marker', async () => {
    expect((await call('POST', '/api/file/markers', { path: '23058-n/rec.flv', atMs: -5 })).status).toBe(400);
    expect((await call('POST', '/api/file/markers', { path: '23058-n/rec.flv', atMs: 5, label: 'x'.repeat(201) })).status).toBe(400);
    expect((await call('POST', '/api/file/markers', { path: '23058-n/none.flv', atMs: 5 })).status).toBe(404);
    expect((await call('POST', '/api/file/markers', { path: '../rec.flv', atMs: 5 })).status).toBe(404);
    expect((await call('DELETE', '/api/file/markers/abc?path=23058-n/rec.flv')).status).toBe(404);
  });
});
