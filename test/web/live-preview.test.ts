// Watch and clip in a real browser against the real service and simulator: a recording room's page plays its live
// preview (frames advance, danmaku appear) while a second reader reads and a third stops reading, the recording's
// pace and bytes unchanged; then the recorded file in the Files page: heat, a marker (M), a suggested moment accepted
// as a clip that ffprobe reads clean.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import type { RecorderEvent } from '../../src/events/types.js';
import { probe } from '../support/media-tools.js';
import { eventually, simRooms, startWebSetup, type WebSetup } from './setup.js';
import { expectWatching, filePace, openPreview } from './preview-reader.js';

const ROOM = 47_001;
type Ev<T extends RecorderEvent['EventType']> = RecorderEvent & { EventType: T };

/** Whole FLV tags of a byte string from `from` (a tag start); a torn last tag is left out. */
function tags(buf: Buffer, from: number): Buffer[] {
  const out: Buffer[] = [];
  for (let p = from; p + 11 <= buf.length;) {
    const end = p + 11 + buf.readUIntBE(p + 1, 3) + 4;
    if (end > buf.length) break;
    out.push(buf.subarray(p, end));
    p = end;
  }
  return out;
}

/** The FLV's tags after its header. */
const fileTags = (buf: Buffer): Buffer[] => tags(buf, buf.readUInt32BE(5) + 4);

describe('live preview and clips in the browser', () => {
  let s: WebSetup;
  let browser: Browser;
  let page: Page;
  const stats = () => s.service.recorder.findRoom(ROOM)!.recordingStats;
  const pace = (ms: number): Promise<number> => filePace(s, ROOM, ms);

  beforeAll(async () => {
    await buildWeb();
    s = await startWebSetup({ rooms: simRooms([ROOM], 600), record: [ROOM], roomConfig: { [ROOM]: { RecordDanmaku: true, RecordDanmakuFlushInterval: 1, RecordingProtocol: 'flv' } } });
    s.sim.danmakuRate(ROOM, { rate: 8 });
    await eventually('recording 4 s', () => stats().fileMaxTimestamp > 4000, 90_000, 200);
    browser = await puppeteer.launch({ args: chromium.args, executablePath: await chromium.executablePath(), headless: true });
    page = await browser.newPage();
    await page.setExtraHTTPHeaders({ 'accept-language': 'en' });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  let openPath = '';

  it('plays the live preview with danmaku while a second reader reads and a third stops reading; the recording is unchanged', async () => {
    const opening = s.events.filter((e): e is Ev<'FileOpening'> => e.EventType === 'FileOpening' && e.EventData.RoomId === ROOM).at(-1)!;
    openPath = opening.EventData.RelativePath;
    const before = await pace(6000);
    // The pace while watched is measured over the whole time the readers are attached (stats arrive in steps).
    const w0 = { t: performance.now(), m: stats().fileMaxTimestamp };
    const { live, a, stalled } = await openPreview(page, s, ROOM, 'flv', 'video/x-flv');
    // Frames advance: the playback position and the decoded frame count both grow.
    await page.waitForFunction(`(document.querySelector('[data-live-video]')?.currentTime ?? 0) > 1`, { timeout: 60_000, polling: 250 });
    const frames = async (): Promise<number> => (await page.evaluate(`document.querySelector('[data-live-video]').getVideoPlaybackQuality().totalVideoFrames`)) as number;
    const f0 = await frames();
    await page.waitForFunction(`document.querySelector('[data-live-video]').getVideoPlaybackQuality().totalVideoFrames > ${f0 + 10}`, { timeout: 30_000, polling: 250 });
    await expectWatching(page, s, ROOM, live, openPath, before, w0);

    // The continuous reader got the file's own bytes: the head's sequence headers, then tags identical to the file's, in order.
    const got = a.bytes();
    a.close();
    stalled.close();
    const file = readFileSync(join(s.workDir, openPath));
    const fromFile = fileTags(file);
    const received = fileTags(got);
    const media = received.filter((t) => !((t[0]! & 0x1f) === 9 && t[12] === 0) && !((t[0]! & 0x1f) === 8 && t[12] === 0));
    expect(media.length).toBeGreaterThan(50);
    const at = fromFile.findIndex((t) => t.equals(media[0]!));
    expect(at).toBeGreaterThanOrEqual(0);
    media.forEach((t, i) => expect(fromFile[at + i]?.equals(t), `tag ${i}`).toBe(true));
    // It started on a video keyframe.
    expect(media[0]![0]! & 0x1f).toBe(9);
    expect(media[0]![11]! >> 4).toBe(1);
  }, 240_000);

  it('the recorded file: heat under the player, a marker by M, a suggested moment accepted as a clip', async () => {
    expect((await fetch(`${s.url}/api/room/${ROOM}/split`, { method: 'POST' })).status).toBe(200);
    const closed = await eventually('FileClosed', () => s.events.find((e): e is Ev<'FileClosed'> => e.EventType === 'FileClosed' && e.EventData.RelativePath === openPath), 60_000);
    expect(closed.EventData.Markers).toHaveLength(1);
    const dir = openPath.slice(0, openPath.lastIndexOf('/') + 1);
    const name = openPath.slice(openPath.lastIndexOf('/') + 1);
    await page.goto(`${s.url}/ui/#/files/${dir}`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector(`tr[data-file="${name}"] [data-action="play"]`, { timeout: 30_000 });
    await page.waitForSelector(`tr[data-file="${name}"] [data-markers="1"]`, { timeout: 20_000 });
    await page.click(`tr[data-file="${name}"] [data-action="play"]`);
    await page.waitForFunction(`(document.querySelector('.player video')?.currentTime ?? 0) > 0.5`, { timeout: 45_000, polling: 250 });
    // The heat bar holds every element of the XML.
    await page.waitForSelector('.player .heat[data-heat]', { timeout: 30_000 });
    const heat = Number(await page.$eval('.player .heat', (el) => el.getAttribute('data-heat')));
    const xml = readFileSync(join(s.workDir, openPath.replace(/\.flv$/, '.xml')), 'utf8');
    expect(heat).toBe((xml.match(/<(d|sc|gift|guard)[ >]/g) ?? []).length);
    expect(heat).toBeGreaterThan(0);
    expect(await page.$$eval('.player .heat-marker', (m) => m.length)).toBe(1);
    await page.keyboard.press('m');
    await page.waitForFunction(`document.querySelectorAll('.player .heat-marker').length === 2`, { timeout: 20_000 });
    // Accept the best suggested moment.
    await page.waitForSelector('.player [data-suggestion] [data-action="accept"]', { timeout: 30_000 });
    await page.click('.player [data-suggestion] [data-action="accept"]');
    const clip = await eventually('the clip done', async () => {
      const list = (await (await fetch(`${s.url}/api/clips`)).json()) as { path: string; state: string; output: string | null; error: string | null }[];
      return list.find((c) => c.path === openPath && (c.state === 'done' || c.state === 'failed'));
    }, 60_000, 250);
    expect(clip.error).toBeNull();
    const p = await probe(join(s.workDir, clip.output!));
    expect(p.errors).toBe('');
    await page.waitForSelector('table.clips tr[data-state="done"] [data-clip-output]', { timeout: 30_000 });
  }, 180_000);
});
