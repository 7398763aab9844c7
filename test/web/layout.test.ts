// The web UI's layout and controls in headless Chromium: every choice setting a select with the OpenAPI document's
// values; at 390 px the Files page keeps its buttons and the source badge whole; a room's page (Start disabled while
// recording, a legend for its chart, title and area apart). Screenshots go to test/web/screenshots/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { eventually, startWebSetup, type WebSetup } from './setup.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const ROOM = 43801;
const SHOTS = join(import.meta.dirname, 'screenshots');

describe('the web UI\'s layout and controls', () => {
  let s: WebSetup;
  let browser: Browser;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    await buildWeb();
    s = await startWebSetup({ rooms: [{ roomId: ROOM, name: 'layout-room', title: 'a title that is long enough to wrap on a phone screen', live: true, formats: ['flv'] }], record: [ROOM] });
    await eventually('the room recording with a source', () => s.service.recorder.rooms.every((r) => r.state.recording && r.state.recordingSource !== null), 60_000);
    browser = await puppeteer.launch({ args: chromium.args, executablePath: await chromium.executablePath(), headless: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  async function open(hash: string, ready: string, width: number, height = 900): Promise<Page> {
    const page = await browser.newPage();
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.setViewport({ width, height });
    await page.goto(`${s.url}/ui/${hash}`);
    await page.waitForSelector(ready, { timeout: 30_000 });
    return page;
  }

  it('makes every choice setting a select whose options are the values the OpenAPI document publishes', async () => {
    const doc = (await (await fetch(`${s.url}/swagger/brec/swagger.json`)).json()) as Json;
    const schemas = doc.components.schemas as Json;
    const resolve = (v: Json): Json => (v?.$ref ? schemas[String(v.$ref).split('/').pop()!] : v);
    const enums = Object.entries(schemas.GlobalConfigDto.properties as Json)
      .map(([key, p]) => [key.charAt(8).toLowerCase() + key.slice(9), resolve((p as Json).properties.value)?.enum] as [string, unknown[] | undefined])
      .filter(([, values]) => Array.isArray(values))
      .map(([name, values]) => [name, values!.filter((v) => v !== null)] as [string, unknown[]]); // null: a nullable choice unset
    // PostRemuxToMp4 was a text box in which a typo silently meant "none".
    expect(Object.fromEntries(enums)).toMatchObject({ postRemuxToMp4: ['none', 'mp4', 'mp4-delete-source'], recordMode: [0, 1], cuttingMode: [0, 1, 2] });
    const page = await open('#/settings', '[data-key="postRemuxToMp4"]', 1400);
    for (const [name, values] of enums) {
      const options = await page.$$eval(`select#global-${name} option`, (os) => os.map((o) => o.getAttribute('value') ?? '')).catch(() => null);
      expect(options, name).toEqual(values.map(String));
    }
    // A choice is saved as the value, and a value outside the list is refused by the API.
    const bad = await fetch(`${s.url}/api/config/global`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ optionalPostRemuxToMp4: { hasValue: true, value: 'mp5' } }) });
    expect(bad.status).toBe(400);
    await page.close();
  });

  it('keeps the Files page\'s buttons inside a 390-px screen and its source badge on one line', async () => {
    const opening = s.events.find((e) => e.EventType === 'FileOpening' && e.EventData.RoomId === ROOM)!;
    const [dir, name] = (opening.EventData as { RelativePath: string }).RelativePath.split('/');
    const page = await open(`#/files/${encodeURIComponent(dir!)}/`, `tr[data-file="${name}"] [data-badge="source"]`, 390, 844);
    await page.screenshot({ path: join(SHOTS, 'files-390.png'), fullPage: true });
    const boxes = await page.$eval(`tr[data-file="${name}"]`, (row) => {
      const box = (sel: string) => {
        const el = row.querySelector(sel)!;
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, width: r.width, height: r.height, lines: el.getClientRects().length };
      };
      return { play: box('[data-action="play"]'), download: box('a[download]'), badge: box('[data-badge="source"]'), page: row.ownerDocument.documentElement.scrollWidth };
    });
    for (const [what, b] of Object.entries({ play: boxes.play, download: boxes.download, badge: boxes.badge })) {
      expect(b.width, what).toBeGreaterThan(0);
      expect(b.left, what).toBeGreaterThanOrEqual(0);
      expect(b.right, what).toBeLessThanOrEqual(390);
    }
    expect(boxes.badge.lines).toBe(1); // one box: the badge's text does not break
    expect(boxes.badge.height).toBeLessThan(24);
    expect(boxes.page).toBeLessThanOrEqual(390); // nothing makes the page itself scroll sideways
    await page.close();
  });

  it('disables Start while the room records, gives the room chart a legend, and sets title and area apart', async () => {
    for (const width of [1400, 390]) {
      const page = await open(`#/room/${ROOM}`, '.detail [data-action="start"]', width);
      await page.waitForFunction(`document.querySelector('.detail .badge.rec') !== null`, { timeout: 30_000 });
      await page.screenshot({ path: join(SHOTS, `room-detail-${width}.png`), fullPage: true });
      const wide = await page.evaluate(`[...document.querySelectorAll('main *')].filter((e) => !e.closest('.table-wrap') && e.getBoundingClientRect().right > ${width} + 1).slice(0, 8).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`);
      expect(wide, `wider than ${width} px`).toEqual([]);
      const state = await page.evaluate(`Object.fromEntries(['start', 'stop', 'split'].map((a) => [a, document.querySelector('.detail [data-action="' + a + '"]').disabled]))`);
      expect(state).toEqual({ start: true, stop: false, split: false });
      const legend = await page.$$eval('.detail .chart-legend li', (lis) => lis.map((li) => [li.getAttribute('data-series'), li.textContent]));
      expect(legend.map(([k]) => k)).toEqual(['bitrate', 'pace', 'written']);
      expect(legend.every(([, text]) => (text ?? '').trim().length > 3)).toBe(true);
      const [title, area] = (await page.evaluate(`['title', 'area'].map((f) => {
        const el = document.querySelector('.detail [data-field="' + f + '"]');
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, text: el.textContent };
      })`)) as { top: number; bottom: number; text: string }[];
      expect(title!.text).toBe('a title that is long enough to wrap on a phone screen');
      expect(area!.text).toMatch(/虚拟主播 · 虚拟日常/);
      expect(area!.top).toBeGreaterThanOrEqual(title!.bottom); // its own line, below the title
      await page.close();
    }
    // Stopped: Start comes back.
    const page = await open(`#/room/${ROOM}`, '.detail [data-action="stop"]', 1400);
    await page.click('.detail [data-action="stop"]');
    await page.waitForFunction(`!document.querySelector('.detail [data-action="start"]').disabled`, { timeout: 30_000 });
    await page.close();
    expect(problems).toEqual([]);
  });
});
