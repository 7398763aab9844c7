// The Files page shows a recording's gaps (from its .gaps.json sidecar) in English and Chinese, in a real browser.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { startWebSetup, type WebSetup } from '../web/setup.js';

describe('gaps in the file list', () => {
  let s: WebSetup;
  let browser: Browser;
  beforeAll(async () => {
    await buildWeb();
    s = await startWebSetup({ rooms: [], record: [] });
    mkdirSync(join(s.workDir, 'room'), { recursive: true });
    writeFileSync(join(s.workDir, 'room', 'a.flv'), Buffer.alloc(100));
    writeFileSync(join(s.workDir, 'room', 'b.flv'), Buffer.alloc(100));
    writeFileSync(join(s.workDir, 'room', 'a.flv.gaps.json'), JSON.stringify({
      File: 'room/a.flv', TotalMs: 4500,
      Gaps: [{ StartMs: 61_000, DurationMs: 3000, Reason: 'reconnect' }, { StartMs: 90_000, DurationMs: 1500, Reason: 'hls-segment' }],
    }));
    browser = await puppeteer.launch({ args: chromium.args, executablePath: await chromium.executablePath(), headless: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it.each([
    ['en-US', '2 gaps · 4.5 s', 'at 1:01: 3.0 s missing (reconnect)'],
    ['zh-CN', '2 处缺口 · 共 4.5 s', '1:01 处缺少 3.0 s（重连）'],
  ])('%s', async (lang, text, first) => {
    const page = await browser.newPage();
    await page.evaluateOnNewDocument(`Object.defineProperty(navigator, 'language', { get: () => ${JSON.stringify(lang)} })`);
    await page.goto(`${s.url}/ui/#/files/room/`);
    await page.waitForSelector('tr[data-file="a.flv"] [data-gaps]', { timeout: 30_000 });
    expect(await page.$eval('tr[data-file="a.flv"] [data-gaps]', (el) => el.textContent)).toBe(text);
    expect((await page.$eval('tr[data-file="a.flv"] [data-gaps]', (el) => el.getAttribute('title')))!.split('\n')[0]).toBe(first);
    expect(await page.$('tr[data-file="b.flv"] [data-gaps]')).toBeNull();
    await page.close();
  });

  it('the room page shows the gaps that came with a FileClosed event', async () => {
    const ROOM = 23861;
    const res = await fetch(`${s.url}/api/room`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ roomId: ROOM, autoRecord: false }) });
    expect(res.status).toBeLessThan(300);
    const page = await browser.newPage();
    await page.goto(`${s.url}/ui/#/room/${ROOM}`);
    await page.waitForSelector(`section.detail[data-room-id="${ROOM}"]`, { timeout: 30_000 });
    const room = { RoomId: ROOM, ShortId: 0, Name: '', Title: '', AreaNameParent: '', AreaNameChild: '', Recording: true, Streaming: true, DanmakuConnected: false };
    const file = { ...room, SessionId: 's1', RelativePath: 'room/c.flv', FileOpenTime: '2026-01-01T00:00:00.0000000+08:00' };
    s.service.recorder.bus.emit({ EventType: 'FileOpening', EventTimestamp: file.FileOpenTime, EventData: file });
    s.service.recorder.bus.emit({ EventType: 'FileClosed', EventTimestamp: file.FileOpenTime, EventData: {
      ...file, FileCloseTime: file.FileOpenTime, FileSize: 100, Duration: 90, Gaps: [{ StartMs: 5000, DurationMs: 2000, Reason: 'timestamp-jump' }],
    } });
    await page.waitForSelector('section.detail [data-gaps]', { timeout: 30_000 });
    expect(await page.$eval('section.detail [data-gaps]', (el) => el.textContent)).toBe('1 gap · 2.0 s');
    await page.close();
  });
});
