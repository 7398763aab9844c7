// The web UI in a real browser (headless Chromium), behind Basic auth, against the real service recording 5 simulated rooms.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { eventually, simRooms, startWebSetup, type WebSetup } from './setup.js';

const ROOMS = [43001, 43002, 43003, 43004, 43005];
const EXTRA = 43006;
const USER = 'admin';
const PASS = 'p@ss word';
const SHOTS = join(import.meta.dirname, 'screenshots');

describe('the web UI', () => {
  let s: WebSetup;
  let browser: Browser;
  let page: Page;
  let receiver: Server;
  const hooks: string[] = [];
  const deliveries: { url: string; body: string }[] = [];
  let failing = true;
  const requests: string[] = [];
  const problems: string[] = [];

  const card = (id: number): string => `article.card[data-room-id="${id}"]`;
  const badge = async (id: number, which: string): Promise<string> =>
    page.$eval(`${card(id)} [data-badge="${which}"]`, (el) => el.textContent ?? '').catch(() => '');
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const opened = (id: number): number => s.events.filter((e) => e.EventType === 'FileOpening' && e.EventData.RoomId === id).length;
  const goto = async (hash: string, ready: string) => {
    await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
    await page.waitForSelector(ready, { timeout: 30_000 });
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    await buildWeb();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        hooks.push(body);
        deliveries.push({ url: req.url ?? '', body });
        res.statusCode = req.url === '/fail' && failing ? 500 : 200;
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    // The room that goes offline first records danmaku, so its closed file has a sibling XML for the player's overlay.
    s = await startWebSetup({ rooms: simRooms([...ROOMS, EXTRA], 500), record: ROOMS, user: USER, pass: PASS, roomConfig: { [ROOMS[4]]: { RecordDanmaku: true } } });
    s.sim.danmakuRate(ROOMS[4], { rate: 20 });
    await eventually('5 rooms recording', () => s.service.recorder.rooms.every((r) => r.state.recording && r.recordingStats.totalOutputBytes > 0), 60_000);
    browser = await puppeteer.launch({ args: chromium.args, executablePath: await chromium.executablePath(), headless: true });
    page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    await page.authenticate({ username: USER, password: PASS });
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
    page.on('requestfailed', (r) => {
      // EventSource connections are cut on purpose when a page closes them.
      if (!r.url().includes('/api/events')) problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
    });
    page.on('dialog', (d) => void d.accept());
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await new Promise((r) => receiver?.close(r));
  });

  it('needs the credentials: without them / and /ui/ answer 401', async () => {
    for (const path of ['/ui/', '/api/events', '/metrics']) expect((await fetch(`${s.url}${path}`)).status).toBe(401);
    const ok = await fetch(`${s.url}/`, { headers: { authorization: s.auth }, redirect: 'manual' });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('/ui/');
  });

  it('lists the rooms and shows a room going offline through the event stream, not by polling', async () => {
    await page.goto(`${s.url}/`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('[data-connected="true"]', { timeout: 30_000 });
    for (const id of ROOMS) await page.waitForSelector(`${card(id)}[data-state="live"]`, { timeout: 30_000 });
    await eventually('recording badges', async () => (await Promise.all(ROOMS.map((id) => badge(id, 'recording')))).every((t) => t === 'recording'));
    await eventually('a chart with data on every card', async () => (await page.$$eval('.card .chart[data-points]', (els) => els.filter((e) => Number(e.getAttribute('data-points')) >= 2).length)) >= ROOMS.length, 30_000, 250);
    await shot('rooms');

    const restBefore = requests.filter((u) => /\/api\/room(\?|$|\/)/.test(new URL(u).pathname)).length;
    const framesBefore = await page.$$eval('article.card', (cards) => cards.length);
    s.sim.setLive(ROOMS[4], false);
    await page.waitForSelector(`${card(ROOMS[4])}[data-state="offline"]`, { timeout: 20_000 });
    // The page made no REST call to learn it: the change arrived on the one /api/events connection.
    expect(requests.filter((u) => /\/api\/room(\?|$|\/)/.test(new URL(u).pathname)).length).toBe(restBefore);
    expect(requests.filter((u) => new URL(u).pathname === '/api/events')).toHaveLength(1);
    expect(framesBefore).toBe(ROOMS.length);
  });

  it('adds, stops, starts, splits and removes rooms by clicking', async () => {
    await page.type('input[name="room"]', `https://live.bilibili.com/${EXTRA}?spm=x`);
    await page.click('[data-action="add"]');
    await page.waitForSelector(card(EXTRA), { timeout: 20_000 });
    await eventually('the added room recording', async () => (await badge(EXTRA, 'recording')) === 'recording', 60_000, 250);

    const id = ROOMS[0];
    await page.click(`${card(id)} [data-action="stop"]`);
    await eventually('stopped', async () => (await badge(id, 'recording')) === 'idle', 30_000, 250);
    expect(s.service.recorder.findRoom(id)?.state.autoRecordForThisSession).toBe(false);
    await page.click(`${card(id)} [data-action="start"]`);
    await eventually('recording again', async () => (await badge(id, 'recording')) === 'recording', 30_000, 250);

    const files = opened(id);
    await page.click(`${card(id)} [data-action="split"]`);
    await eventually('a new file after the split', () => opened(id) > files, 30_000);

    await page.click(`${card(EXTRA)} [data-action="remove"]`);
    await page.waitForSelector(card(EXTRA), { hidden: true, timeout: 20_000 });
    expect(s.service.recorder.findRoom(EXTRA)).toBeUndefined();
  });

  it('saves settings from the page into config.json, previews file names and sends a test webhook', async () => {
    await goto('#/settings', '[data-key="webHookUrlsV2"]');
    await page.waitForSelector('[data-preview]', { timeout: 20_000 });
    expect(await page.$eval('[data-preview] code', (el) => el.textContent)).toMatch(/\.flv$/);
    const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    // The second URL fails until the Webhooks page replays a delivery to it.
    const url = `${base}/hook\n${base}/fail`;
    await page.click('[data-override="webHookUrlsV2"]');
    await page.type('#global-webHookUrlsV2', url);
    await page.click('[data-action="save"]');
    await page.waitForFunction(`[...document.querySelectorAll('.notice')].some((n) => n.textContent.includes('saved'))`, { timeout: 20_000 })
      .catch(async (err: Error) => {
        await shot('settings-failed');
        throw new Error(`${err.message}; notices: ${await page.$$eval('.notice', (ns) => ns.map((n) => n.textContent).join(' | '))}`);
      });
    const saved = JSON.parse(readFileSync(join(s.workDir, 'config.json'), 'utf8')) as { global: Record<string, { Value?: unknown }> };
    expect(saved.global.WebHookUrlsV2?.Value).toBe(url);

    await page.click('[data-action="webhook-test"]');
    await page.waitForSelector('.webhook-test .results li.ok', { timeout: 20_000 });
    expect(hooks.some((h) => JSON.parse(h).EventType === 'Test')).toBe(true);
    await shot('settings');
  });

  it('shows a room\'s every stats field, files, events, logs and overrides', async () => {
    await goto(`#/room/${ROOMS[0]}`, 'table[data-table="recordingStats"]');
    await page.waitForFunction(`Number(document.querySelector('[data-table="recordingStats"] [data-field="totalInputBytes"]')?.getAttribute('data-value')) > 0`, { timeout: 20_000 });
    const fields = await page.$$eval('[data-table] td[data-field]', (tds) => tds.map((td) => td.getAttribute('data-field')));
    expect(fields).toEqual(expect.arrayContaining(['sessionDuration', 'durationRatio', 'totalOutputAudioBytes', 'streamHost', 'networkMbps', 'diskMBps']));
    expect(fields.length).toBe(21 + 9);
    await page.waitForSelector('[data-key="recordMode"]', { timeout: 20_000 });
    await shot('room-detail');
  });

  it('plays a recorded FLV in the Files page with its danmaku overlaid', async () => {
    const room = s.service.recorder.findRoom(ROOMS[4])!;
    const closed = s.events.find((e) => e.EventType === 'FileClosed' && e.EventData.RoomId === room.roomId);
    expect(closed).toBeDefined();
    const rel = (closed!.EventData as { RelativePath: string }).RelativePath;
    const dir = rel.slice(0, rel.lastIndexOf('/') + 1);
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    await goto(`#/files/${dir}`, `tr[data-file="${name}"]`);
    await page.click(`tr[data-file="${name}"] [data-action="play"]`);
    await page.waitForFunction(`(document.querySelector('.player video')?.currentTime ?? 0) > 0.5`, { timeout: 45_000, polling: 250 });
    const t = (await page.evaluate(`document.querySelector('.player video').currentTime`)) as number;
    expect(t).toBeGreaterThan(0.5);
    // The sibling danmaku XML is overlaid on the video.
    await page.waitForSelector('.player .danmaku span', { timeout: 30_000 });
    expect(await page.$eval('.player > p.hint', (el) => el.textContent)).toMatch(/^\d+ danmaku from the sibling XML$/);
    await shot('files');
  });

  it('lists webhook deliveries, replays a failed one by clicking, and tails the log', async () => {
    s.sim.setLive(ROOMS[3], false);
    await goto('#/webhooks', 'main[data-page="webhooks"]');
    // Given up after 3 attempts (1 s + 2 s apart); the page refreshes on lifecycle events, so reload it by hand here.
    await eventually('a given-up delivery listed', async () => {
      await page.click('main[data-page="webhooks"] .toolbar button');
      return page.$('tr.st-given-up [data-action="replay"]');
    }, 30_000, 1000);
    await shot('webhooks');
    failing = false;
    // Other deliveries (the offline's events, retries that now succeed) may arrive meanwhile: count this event's only.
    const eventId = await page.$eval('tr.st-given-up', (el) => el.getAttribute('data-event-id'));
    const toFail = (): number => deliveries.filter((d) => d.url === '/fail' && (JSON.parse(d.body) as { EventId?: string }).EventId === eventId).length;
    expect(toFail()).toBe(3); // the three attempts it gave up after
    await page.click('tr.st-given-up [data-action="replay"]');
    await page.waitForFunction(`[...document.querySelectorAll('.notice')].some((n) => n.textContent.startsWith('replayed'))`, { timeout: 20_000 });
    expect(toFail()).toBe(4);
    await goto('#/logs', '.logs .log-lines li');
    await shot('logs');
  });

  it('kept every request on 127.0.0.1 and logged no console error', () => {
    expect(requests.length).toBeGreaterThan(10);
    // data: URLs are inline (no request); a blob: URL (the player's MediaSource) carries the origin that made it.
    const hosts = requests.filter((u) => !u.startsWith('data:')).map((u) => new URL(u.replace(/^blob:/, '')).host);
    expect([...new Set(hosts)].filter((h) => !h.startsWith('127.0.0.1:'))).toEqual([]);
    expect(problems).toEqual([]);
  });
});
