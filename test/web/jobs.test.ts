// Post-file jobs against the real service and simulator: FLV, HLS-TS and HLS-fMP4 recordings remuxed to MP4s that ffprobe
// reads like their sources, listed by GET /api/jobs, announced by PostProcessed, and shown by the Jobs page in zh and en.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { TsScanner } from '../../src/hls/ts-packets.js';
import { COVER_JPEG } from '../../src/simulator/cover.js';
import type { RecorderEvent } from '../../src/events/types.js';
import { mediaFacts, type MediaFacts } from '../post/media.js';
import { eventually, startWebSetup, type WebSetup } from './setup.js';

const ROOMS = { flv: 46001, 'hls-ts': 46002, 'hls-fmp4': 46003 } as const;
type Processed = RecorderEvent & { EventType: 'PostProcessed' };

function tsFacts(file: string): MediaFacts {
  const s = new TsScanner();
  s.push(readFileSync(file));
  const n = s.videoFrames;
  return { streams: [{ kind: 'video', packets: n }, { kind: 'audio', packets: s.audioFrames }], videoDuration: (((s.video.last! - s.video.first!) / 90000) * n) / (n - 1) };
}

describe('post-file jobs in the service', () => {
  let s: WebSetup;
  let browser: Browser | undefined;
  const processed: Partial<Record<keyof typeof ROOMS, Processed>> = {};

  beforeAll(async () => {
    await buildWeb();
    s = await startWebSetup({
      rooms: Object.entries(ROOMS).map(([p, roomId]) => ({ roomId, name: `post ${p}`, title: `post ${p}`, live: true, bitrateKbps: 400, formats: [p === 'flv' ? 'flv' : p === 'hls-ts' ? 'ts' : 'fmp4'] })),
      record: Object.values(ROOMS),
      roomConfig: Object.fromEntries(Object.entries(ROOMS).map(([p, id]) => [id, {
        PostRemuxToMp4: 'mp4', RecordingProtocol: p,
        // The FLV room also saves the room's cover (served by the simulator) and renders its danmaku as ASS.
        ...(p === 'flv' ? { SaveStreamCover: true, RecordDanmaku: true, PostDanmakuToAss: true } : {}),
      }])),
    });
    for (const id of Object.values(ROOMS)) {
      await eventually(`room ${id} recording 5 s`, () => (s.service.recorder.findRoom(id)?.recordingStats.sessionDuration ?? 0) > 5000, 90_000, 200);
    }
    for (const id of Object.values(ROOMS)) expect((await fetch(`${s.url}/api/room/${id}/split`, { method: 'POST' })).status).toBe(200);
    for (const [p, id] of Object.entries(ROOMS) as [keyof typeof ROOMS, number][]) {
      processed[p] = await eventually(`PostProcessed of room ${id}`, () => s.events.find((e): e is Processed => e.EventType === 'PostProcessed' && e.EventData.RoomId === id), 90_000, 200);
    }
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  for (const p of Object.keys(ROOMS) as (keyof typeof ROOMS)[]) {
    it(`a ${p} recording becomes an MP4 with the same streams, samples (±1) and duration (±50 ms)`, () => {
      const e = processed[p]!;
      expect(e.EventData.Succeeded).toBe(true);
      expect(e.EventData.OutputPath).toMatch(/\.mp4$/);
      expect(e.EventData.OutputPath).not.toBe(e.EventData.RelativePath);
      const source = join(s.workDir, e.EventData.RelativePath);
      const mp4 = join(s.workDir, e.EventData.OutputPath);
      const want = p === 'hls-ts' ? tsFacts(source) : mediaFacts(source);
      const got = mediaFacts(mp4);
      expect(got.streams.map((x) => x.kind)).toEqual(want.streams.map((x) => x.kind));
      got.streams.forEach((x, i) => expect(Math.abs(x.packets - want.streams[i]!.packets), `${x.kind} samples`).toBeLessThanOrEqual(1));
      expect(Math.abs(got.videoDuration - want.videoDuration)).toBeLessThan(0.05);
    });
  }

  it('SaveStreamCover: the room cover lies beside the recording; PostDanmakuToAss: the ASS beside the video', () => {
    const e = processed.flv!;
    expect(e.EventData.Jobs.map((j) => [j.Kind, j.State])).toEqual([['cover', 'done'], ['remux', 'done'], ['danmaku-ass', 'done']]);
    const base = join(s.workDir, e.EventData.RelativePath.replace(/\.flv$/, ''));
    expect(readFileSync(`${base}.cover.jpg`).equals(COVER_JPEG)).toBe(true);
    expect(readFileSync(`${base}.ass`, 'utf8')).toContain('[Events]');
  });

  it('GET /api/jobs lists each file\'s remux as done, with its output', async () => {
    const res = await fetch(`${s.url}/api/jobs`);
    expect(res.status).toBe(200);
    const jobs = (await res.json()) as { roomId: number; kind: string; state: string; output: string | null; relativePath: string }[];
    for (const id of Object.values(ROOMS)) {
      expect(jobs.find((j) => j.kind === 'remux' && j.roomId === id && j.relativePath === Object.values(processed).find((e) => e!.EventData.RoomId === id)!.EventData.RelativePath))
        .toMatchObject({ kind: 'remux', state: 'done', output: expect.stringMatching(/\.mp4$/) });
    }
  });

  for (const lang of ['en', 'zh-CN']) {
    it(`the Jobs page lists them in ${lang}, with no untranslated key`, async () => {
      browser ??= await puppeteer.launch({ args: chromium.args, executablePath: await chromium.executablePath(), headless: true });
      const page = await browser.newPage();
      await page.setExtraHTTPHeaders({ 'accept-language': lang });
      await page.goto(`${s.url}/ui/#/jobs`, { waitUntil: 'domcontentloaded' });
      await page.evaluate(`localStorage.setItem('liverec.lang', ${JSON.stringify(lang === 'en' ? 'en' : 'zh')})`);
      await page.reload({ waitUntil: 'domcontentloaded' });
      await page.waitForSelector('tr[data-job="remux"][data-state="done"]', { timeout: 30_000 });
      const dicts = (await page.evaluate('window.__liverecI18n.dicts')) as Record<string, Record<string, string>>;
      const dict = dicts[lang === 'en' ? 'en' : 'zh']!;
      expect(await page.$eval('a[data-nav="jobs"]', (a) => a.textContent)).toBe(dict['nav.jobs']);
      expect(await page.$eval('main h2', (h) => h.textContent)).toBe(dict['jobs.title']);
      const cells = await page.$$eval('tr[data-job="remux"][data-state="done"] td', (tds) => tds.map((td) => td.textContent));
      expect(cells).toContain(dict['jobkind.remux']);
      expect(cells).toContain(dict['jobstate.done']);
      expect(await page.$eval('section[data-retention="off"] .empty', (p) => p.textContent)).toBe(dict['retention.off']);
      expect(await page.evaluate('[...window.__liverecI18n.missing]')).toEqual([]);
      await page.close();
    });
  }
});
