// What both live-preview browser tests use: a plain-HTTP reader of a preview, the pace of the room's open file, and
// the checks made while the page watches.
import { get, type IncomingMessage } from 'node:http';
import type { Page } from 'puppeteer-core';
import { expect } from 'vitest';
import type { WebSetup } from './setup.js';

type Reader = { res: IncomingMessage; bytes: () => Buffer; close(): void };

/** A reader of the live preview over plain HTTP: keeps reading, or stops after its first chunk. */
export function previewReader(url: string, stopReading: boolean): Promise<Reader> {
  return new Promise((resolve, reject) => {
    const req = get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        if (stopReading) res.pause();
      });
      resolve({ res, bytes: () => Buffer.concat(chunks), close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

/** Media ms the room's open file gained per wall ms over `ms`. */
export async function filePace(s: WebSetup, roomId: number, ms: number): Promise<number> {
  const stats = () => s.service.recorder.findRoom(roomId)!.recordingStats;
  const t0 = performance.now();
  const m0 = stats().fileMaxTimestamp;
  await new Promise((r) => setTimeout(r, ms));
  return (stats().fileMaxTimestamp - m0) / (performance.now() - t0);
}

/**
 * Two plain readers of the room's preview (one reading on, one stalled after its first chunk), then the room's page in
 * English with Watch live clicked.
 */
export async function openPreview(page: Page, s: WebSetup, roomId: number, ext: 'flv' | 'mp4', contentType: string): Promise<{ live: string; a: Reader; stalled: Reader }> {
  const live = `${s.url}/api/room/${roomId}/live.${ext}`;
  const a = await previewReader(live, false);
  const stalled = await previewReader(live, true);
  expect(a.res.statusCode).toBe(200);
  expect(a.res.headers['content-type']).toBe(contentType);
  expect(stalled.res.statusCode).toBe(200);
  await page.goto(`${s.url}/ui/#/room/${roomId}`, { waitUntil: 'domcontentloaded' });
  await page.evaluate(`localStorage.setItem('liverec.lang', 'en')`);
  await page.reload({ waitUntil: 'domcontentloaded' });
  await page.waitForSelector('[data-action="watch-live"]', { timeout: 30_000 });
  await page.click('[data-action="watch-live"]');
  return { live, a, stalled };
}

/**
 * What the page shows while the preview plays, and what the service keeps while three readers watch: comments drawn
 * over the picture and the file's heat under it; a fourth reader refused (429, -17); the recording's pace as before
 * (`before`, from `w0` on); then M marks the live position of the file being written (`openPath`).
 */
export async function expectWatching(page: Page, s: WebSetup, roomId: number, live: string, openPath: string, before: number, w0: { t: number; m: number }): Promise<void> {
  const stats = () => s.service.recorder.findRoom(roomId)!.recordingStats;
  await page.waitForFunction(`Number(document.querySelector('[data-live-danmaku]')?.getAttribute('data-live-danmaku')) > 0`, { timeout: 30_000, polling: 250 });
  await page.waitForSelector('[data-live-preview] .danmaku span', { timeout: 30_000 });
  await page.waitForSelector('[data-live-preview] .heat[data-heat]', { timeout: 30_000 });
  expect(Number(await page.$eval('[data-live-preview] .heat', (el) => el.getAttribute('data-heat')))).toBeGreaterThan(0);
  const fourth = await fetch(live);
  expect(fourth.status).toBe(429);
  expect(((await fourth.json()) as { code: number }).code).toBe(-17);

  await new Promise((r) => setTimeout(r, 3000));
  const during = (stats().fileMaxTimestamp - w0.m) / (performance.now() - w0.t);
  expect(during).toBeGreaterThan(0.7);
  expect(Math.abs(during - before)).toBeLessThan(0.3);
  expect(stats().durationRatio).toBeGreaterThan(0.75);

  // M marks the live position (the written duration less the player's lag).
  await page.keyboard.press('m');
  await page.waitForSelector('[data-live-preview] .markers li', { timeout: 20_000 });
  const marks = (await (await fetch(`${s.url}/api/file/markers?path=${encodeURIComponent(openPath)}`)).json()) as { markers: { atMs: number }[] };
  expect(marks.markers).toHaveLength(1);
  expect(marks.markers[0]!.atMs).toBeGreaterThan(0);
  // The room's stats reach the main thread about once a second, and the mark may use a newer position: wait for them.
  const at = marks.markers[0]!.atMs;
  const deadline = Date.now() + 10_000;
  while (stats().fileMaxTimestamp < at && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(at).toBeLessThanOrEqual(stats().fileMaxTimestamp);
}
