// The live preview of a room recording HLS fMP4 (as guests of the default simulator do) in a real browser: the room
// page plays live.mp4 through Media Source Extensions (the video's time advances, frames are decoded, danmaku appear,
// M marks the live position) while a second reader reads and a third stops reading; a fourth is refused; the
// recording's pace holds, the bytes served are the file's from its init section onwards, and the file closes playable.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import type { RecorderEvent } from '../../src/events/types.js';
import { boxes } from '../../src/hls/mp4-boxes.js';
import { probe } from '../support/media-tools.js';
import { eventually, simRooms, startWebSetup, type WebSetup } from './setup.js';
import { expectWatching, filePace, openPreview } from './preview-reader.js';

const ROOM = 47_301;
type Ev<T extends RecorderEvent['EventType']> = RecorderEvent & { EventType: T };

describe('live preview of an HLS fMP4 room in the browser', () => {
  let s: WebSetup;
  let browser: Browser;
  let page: Page;
  const stats = () => s.service.recorder.findRoom(ROOM)!.recordingStats;
  const pace = (ms: number): Promise<number> => filePace(s, ROOM, ms);

  beforeAll(async () => {
    await buildWeb();
    // The default simulator and the default RecordingProtocol: a guest is capped, and its original quality is HLS fMP4.
    s = await startWebSetup({ rooms: simRooms([ROOM], 600), record: [ROOM], roomConfig: { [ROOM]: { RecordDanmaku: true, RecordDanmakuFlushInterval: 1 } } });
    s.sim.danmakuRate(ROOM, { rate: 8 });
    await eventually('recording 4 s', () => (s.service.recorder.findRoom(ROOM)?.recordingStats.fileMaxTimestamp ?? 0) > 4000, 90_000, 200);
    browser = await puppeteer.launch({ args: chromium.args, executablePath: await chromium.executablePath(), headless: true });
    page = await browser.newPage();
    await page.setExtraHTTPHeaders({ 'accept-language': 'en' });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('plays live.mp4 with danmaku beside a reading and a stalled reader; the recording and its bytes are unchanged', async () => {
    const opening = s.events.filter((e): e is Ev<'FileOpening'> => e.EventType === 'FileOpening' && e.EventData.RoomId === ROOM).at(-1)!;
    const openPath = opening.EventData.RelativePath;
    expect(openPath).toMatch(/\.mp4$/);
    const before = await pace(6000);
    const w0 = { t: performance.now(), m: stats().fileMaxTimestamp };
    const { live, a, stalled } = await openPreview(page, s, ROOM, 'mp4', 'video/mp4');
    // The picture plays: its time moves on from where the first fragment put it, and frames are decoded.
    const video = `document.querySelector('[data-live-video]')`;
    await page.waitForFunction(`(${video}?.currentTime ?? 0) > 0 && !${video}.paused`, { timeout: 60_000, polling: 250 });
    const t0 = (await page.evaluate(`${video}.currentTime`)) as number;
    await page.waitForFunction(`${video}.currentTime > ${t0 + 2}`, { timeout: 60_000, polling: 250 });
    const f0 = (await page.evaluate(`${video}.getVideoPlaybackQuality().totalVideoFrames`)) as number;
    await page.waitForFunction(`${video}.getVideoPlaybackQuality().totalVideoFrames > ${f0 + 10}`, { timeout: 30_000, polling: 250 });
    expect(await page.evaluate(`${video}.error`)).toBeNull();
    await expectWatching(page, s, ROOM, live, openPath, before, w0);

    // The continuous reader got the file's own bytes: its init section as written, then a run of the file.
    const got = a.bytes();
    a.close();
    stalled.close();
    expect((await page.$('[data-live-video]')) !== null).toBe(true);
    await page.click('[data-action="watch-live"]'); // the page lets go of its stream
    expect((await fetch(`${s.url}/api/room/${ROOM}/split`, { method: 'POST' })).status).toBe(200);
    await eventually('FileClosed', () => s.events.find((e) => e.EventType === 'FileClosed' && e.EventData.RelativePath === openPath), 60_000);
    const file = readFileSync(join(s.workDir, openPath));
    const headEnd = boxes(file).find((b) => b.type === 'moof')!.start;
    expect(got.subarray(0, headEnd).equals(file.subarray(0, headEnd))).toBe(true);
    const served = boxes(got, headEnd);
    expect(served[0]!.type).toBe('moof');
    expect(served.filter((b) => b.type === 'moof').length).toBeGreaterThan(2);
    const rest = got.subarray(headEnd, served.at(-1)!.end);
    const at = file.indexOf(rest.subarray(0, 4096));
    expect(at).toBeGreaterThanOrEqual(headEnd);
    expect(file.subarray(at, at + rest.length).equals(rest)).toBe(true);
    // The recording itself, watched by three, is whole and plays.
    const p = await probe(join(s.workDir, openPath));
    expect(p.errors).toBe('');
    expect(p.codecs).toContain('h264');
  }, 240_000);
});
