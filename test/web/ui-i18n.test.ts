// The UI in both languages, at desktop and phone width, in headless Chromium against the real service: labels, charts, layout.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { eventually, simRooms, startWebSetup, type WebSetup } from './setup.js';

const ROOMS = [45001, 45002];
const OFFLINE = 45003;
const SHOTS = join(import.meta.dirname, 'screenshots');

/** Every page and the element that says it has drawn. */
const PAGES: [string, string, string][] = [
  ['rooms', '#/rooms', `article.card[data-room-id="${ROOMS[0]}"] .chart`],
  ['room', `#/room/${ROOMS[0]}`, '[data-key="recordMode"]'],
  ['settings', '#/settings', '[data-key="webHookUrlsV2"] [data-preview], [data-key="fileNameRecordTemplate"] [data-preview]'],
  ['files', '#/files/', 'table.files tbody tr'],
  ['webhooks', '#/webhooks', 'main[data-page="webhooks"] table tbody tr'],
  ['logs', '#/logs', '.logs .log-lines li'],
];

/** Texts of the elements that carry the UI's own words (not data such as titles, names or log messages). */
const LABELS = 'nav a, h3, legend, summary, label, th, button, caption, option, .badge, .unit, .hint, .empty, .help, .source, .setting-head label';

describe('the web UI in Chinese and English', () => {
  let s: WebSetup;
  let browser: Browser;
  let receiver: Server;
  const problems: string[] = [];
  /** The UI's own dictionaries, read from the page (window.__liverecI18n.dicts): zh and en. */
  let dicts: Record<string, Record<string, string>> = {};
  const dictOf = (lang: string): Record<string, string> => dicts[lang === 'en' ? 'en' : 'zh'];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    await buildWeb();
    s = await startWebSetup({ rooms: [...simRooms([...ROOMS], 500), { roomId: OFFLINE, name: 'quiet', title: 'offline room', live: false, bitrateKbps: 500 }], record: [...ROOMS, OFFLINE] });
    await eventually('rooms recording', () => ROOMS.every((id) => s.service.recorder.findRoom(id)?.recordingStats.totalOutputBytes), 60_000);
    // Webhook deliveries to list: a receiver, its URL saved through the API, then a room going live.
    receiver = createServer((req, res) => req.resume().on('end', () => res.end()));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const saved = await fetch(`${s.url}/api/config/global`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ optionalWebHookUrlsV2: { hasValue: true, value: hook } }),
    });
    expect(saved.status).toBe(200);
    s.sim.setLive(OFFLINE, true);
    await eventually('webhook deliveries', async () => ((await (await fetch(`${s.url}/api/webhook/deliveries`)).json()) as unknown[]).length > 0, 60_000, 250);
    browser = await puppeteer.launch({ args: chromium.args, executablePath: await chromium.executablePath(), headless: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await new Promise((r) => receiver?.close(r));
  });

  /**
   * A page whose browser language is `lang` (navigator.languages and Accept-Language alike) and with no language chosen
   * before. (Pages share one profile: @sparticuz/chromium runs single-process, where a second browser context crashes.)
   */
  async function open(lang: string, width = 1280, height = 900): Promise<Page> {
    const page = await browser.newPage();
    const cdp = await page.createCDPSession();
    await cdp.send('Network.setUserAgentOverride', { userAgent: await browser.userAgent(), acceptLanguage: lang });
    await page.setExtraHTTPHeaders({ 'accept-language': lang });
    await page.setViewport({ width, height });
    page.on('pageerror', (e) => problems.push(`${lang}: ${String(e)}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${lang} console: ${m.text()}`);
    });
    await page.goto(`${s.url}/ui/`, { waitUntil: 'domcontentloaded' });
    await page.evaluate(`localStorage.removeItem('liverec.lang')`);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForSelector('[data-connected="true"]', { timeout: 30_000 });
    dicts = (await page.evaluate('window.__liverecI18n.dicts')) as typeof dicts;
    return page;
  }

  async function visit(page: Page, hash: string, ready: string): Promise<void> {
    await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
    await page.waitForSelector(ready, { timeout: 30_000 });
    // Open the advanced settings too, so their labels are checked and photographed.
    await page.evaluate(`document.querySelectorAll('details.advanced').forEach((d) => (d.open = true))`);
  }

  /** Label texts that are another language's: equal to an English text that the Chinese dictionary words differently, or vice versa. */
  async function foreignLabels(page: Page, lang: string): Promise<string[]> {
    const own = dictOf(lang);
    const other = dictOf(lang === 'en' ? 'zh-CN' : 'en');
    const mine = new Set(Object.values(own));
    const foreign = new Set(Object.values(other).filter((v) => !mine.has(v) && v.length > 1 && !v.includes('{')));
    const texts = await page.$$eval(LABELS, (els) => els.map((e) => (e.textContent ?? '').trim()).filter(Boolean));
    return texts.filter((text) => foreign.has(text));
  }

  for (const lang of ['zh-CN', 'en']) {
    it(`with Accept-Language ${lang}, every page speaks it, with no untranslated key, at desktop and 390-px width`, async () => {
      const page = await open(lang);
      const dict = dictOf(lang);
      expect(await page.$eval('html', (h) => h.lang)).toBe(lang === 'en' ? 'en' : 'zh-CN');
      expect(await page.$$eval('nav a', (as) => as.map((a) => a.textContent))).toEqual(['rooms', 'settings', 'files', 'jobs', 'webhooks', 'logs'].map((p) => dict[`nav.${p}`]));
      for (const [name, hash, ready] of PAGES) {
        for (const [width, height] of [[1280, 900], [390, 844]]) {
          await page.setViewport({ width, height });
          await visit(page, hash, ready);
          await new Promise((r) => setTimeout(r, 300));
          const text = await page.$eval('body', (b) => b.innerText);
          expect(text, `${lang} ${name}: an untranslated key`).not.toContain('⟦');
          expect(text, `${lang} ${name}: a raw unset value`).not.toMatch(/\bNaN\b|0001-01-01|Infinity|undefined/);
          expect(await foreignLabels(page, lang), `${lang} ${name}: labels in the other language`).toEqual([]);
          const { scroll, client } = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })')) as { scroll: number; client: number };
          expect(scroll, `${lang} ${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(client);
          await page.screenshot({ path: join(SHOTS, `${lang}-${name}-${width}.png`), fullPage: true });
        }
      }
      expect(await page.evaluate('[...window.__liverecI18n.missing]')).toEqual([]);
      // Chinese labels on the pages that have them: the settings groups, the stats captions, the log columns.
      if (lang === 'zh-CN') {
        await visit(page, '#/settings', '[data-group="danmaku"] legend');
        expect(await page.$eval('[data-group="danmaku"] legend', (e) => e.textContent)).toBe('弹幕录制');
        expect(await page.$eval('[data-key="timingCheckInterval"] .unit', (e) => e.textContent)).toBe('秒');
        expect(await page.$eval('[data-key="userScript"] .inert-badge', (e) => e.textContent)).toBe(dict['form.inert.not-implemented']);
        expect(await page.$eval('[data-key="timingCheckInterval"] .source', (e) => e.textContent)).toContain('600 秒 (10分00秒)');
      }
      await page.close();
    }, 240_000);
  }

  it('switches language from the header and remembers the choice', async () => {
    const page = await open('zh-CN');
    expect(await page.$eval('nav a', (a) => a.textContent)).toBe('直播间');
    await page.select('select.lang', 'en');
    await page.waitForFunction(`document.querySelector('nav a').textContent === 'Rooms'`, { timeout: 10_000 });
    expect(await page.$eval(`article.card[data-room-id="${ROOMS[0]}"] [data-badge="recording"]`, (e) => e.textContent)).toBe('recording');
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForSelector('[data-connected="true"]', { timeout: 30_000 });
    expect(await page.$eval('nav a', (a) => a.textContent)).toBe('Rooms');
    expect(await page.$eval('html', (h) => h.lang)).toBe('en');
    await page.close();
  }, 120_000);

  it('draws a room\'s chart from data recorded before the page was loaded, with axes and a tooltip', async () => {
    const url = (path: string) => `${s.url}${path}`;
    const serverSamples = async (): Promise<number[]> => {
      const body = (await (await fetch(url(`/api/history?room=${ROOMS[0]}`))).json()) as { rooms: { t: number[]; mbps: number[] }[] };
      return body.rooms[0]?.t ?? [];
    };
    await eventually('three samples on the server', async () => (await serverSamples()).length >= 3, 60_000, 500);
    const recorded = await serverSamples();
    const page = await open('en');
    const loadedAt = Date.now();
    await page.reload({ waitUntil: 'domcontentloaded' });
    const chart = `article.card[data-room-id="${ROOMS[0]}"] .chart`;
    // The points are rendered with the card; uPlot draws its canvas in an effect after that render, so wait for both.
    await page.waitForFunction(`Number(document.querySelector('${chart}')?.getAttribute('data-points')) >= 3 && document.querySelector('${chart} canvas') !== null`, { timeout: 30_000 });
    const first = Number(await page.$eval(chart, (e) => e.getAttribute('data-first')));
    // The chart starts at the server's first sample, taken before this page existed.
    expect(first).toBe(recorded[0]);
    expect(first).toBeLessThan(loadedAt);

    await page.evaluate(`location.hash = '#/room/${ROOMS[0]}'`);
    const detail = '.detail .chart';
    await page.waitForFunction(`Number(document.querySelector('${detail}')?.getAttribute('data-points')) >= 3 && document.querySelector('${detail} .u-over') !== null`, { timeout: 30_000 });
    expect(Number(await page.$eval(detail, (e) => e.getAttribute('data-first')))).toBe(recorded[0]);
    const over = await page.$(`${detail} .u-over`);
    const box = (await over!.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
    await page.waitForFunction(`getComputedStyle(document.querySelector('${detail} .chart-tip')).display === 'block'`, { timeout: 10_000 });
    const tip = await page.$eval(`${detail} .chart-tip`, (e) => e.textContent ?? '');
    expect(tip).toMatch(/Bitrate: \d+\.\d\d Mbit\/s/);
    expect(tip).toMatch(/Written: /);
    await page.screenshot({ path: join(SHOTS, 'en-room-chart-tooltip.png') });
    await page.close();
  }, 180_000);

  it('shows log lines as level, time, room and message, with the JSON on demand', async () => {
    const page = await open('en', 390, 844);
    await visit(page, '#/logs', `.logs .log-lines li[data-room="${ROOMS[0]}"]`);
    const row = `.logs .log-lines li[data-room="${ROOMS[0]}"]`;
    const cells = await page.$eval(row, (li) => ['.l', '.t', '.r', '.m'].map((c) => li.querySelector(c)?.textContent ?? ''));
    expect(cells[0]).toMatch(/^(debug|info|warning|error)$/);
    expect(cells[1]).toMatch(/^\d\d:\d\d:\d\d$/);
    expect(cells[2]).toBe(String(ROOMS[0]));
    expect(cells[3]).not.toContain('{"');
    await page.click(`${row} .json-toggle`);
    const json = JSON.parse(await page.$eval(`${row} pre.json`, (e) => e.textContent ?? '')) as Record<string, unknown>;
    expect(json.RoomId).toBe(ROOMS[0]);
    expect(await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')).toBe(true);
    await page.close();
  }, 120_000);

  it('logged no page error', () => {
    expect(problems).toEqual([]);
  });
});
