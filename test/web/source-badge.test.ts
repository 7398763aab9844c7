// The provenance badge in a real browser: the room page and its file list say origin / re-encode, in English and in Chinese.
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { eventually, startWebSetup, type WebSetup } from './setup.js';

const ORIGIN = 43701;
const REENCODE = 43702;

describe('the source badge in the web UI', () => {
  let s: WebSetup;
  let browser: Browser;

  beforeAll(async () => {
    await buildWeb();
    s = await startWebSetup({
      rooms: [
        { roomId: ORIGIN, name: 'origin-room', live: true, formats: ['flv'], variants: { bluray: true } },
        { roomId: REENCODE, name: 'bluray-room', live: true, formats: ['flv'], variants: { bluray: true, originAvailable: false } },
      ],
      record: [ORIGIN, REENCODE],
    });
    await eventually('both rooms recording with a source', () => s.service.recorder.rooms.every((r) => r.state.recordingSource !== null), 60_000);
    browser = await puppeteer.launch({ args: chromium.args, executablePath: await chromium.executablePath(), headless: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  async function roomPage(lang: string, id: number): Promise<Page> {
    const page = await browser.newPage();
    await page.setExtraHTTPHeaders({ 'Accept-Language': lang });
    await page.evaluateOnNewDocument(`Object.defineProperty(navigator, 'language', { get: () => ${JSON.stringify(lang)} }); Object.defineProperty(navigator, 'languages', { get: () => [${JSON.stringify(lang)}] })`);
    await page.goto(`${s.url}/ui/#/room/${id}`);
    await page.waitForSelector('.badges [data-badge="source"]', { timeout: 30_000 });
    await page.waitForSelector('table.list [data-badge="source"]', { timeout: 30_000 });
    return page;
  }

  const texts = (page: Page, sel: string): Promise<string[]> => page.$$eval(sel, (els) => els.map((e) => `${e.getAttribute('data-source')}|${e.textContent}|${e.getAttribute('title')}`));

  it('says origin on the origin room and re-encode on the _bluray room, with qn, codec and evidence', async () => {
    const page = await roomPage('en-US', ORIGIN);
    const [room] = await texts(page, '.badges [data-badge="source"]');
    expect(room).toMatch(/^origin\|origin · qn 25000 · avc\|the streamer's own stream\n/);
    expect(room).toContain('suffix=origin');
    expect((await texts(page, 'table.list [data-badge="source"]'))[0]).toMatch(/^origin\|/);
    await page.close();
    const other = await roomPage('en-US', REENCODE);
    expect((await texts(other, '.badges [data-badge="source"]'))[0]).toMatch(/^reencode\|re-encode · qn 10000 · avc\|.*_bluray/s);
    await other.close();
  });

  it('speaks Chinese to a Chinese browser', async () => {
    const page = await roomPage('zh-CN', REENCODE);
    expect((await texts(page, '.badges [data-badge="source"]'))[0]).toMatch(/^reencode\|二压 · qn 10000 · avc\|/);
    expect(await page.$eval('table.list thead', (el) => el.textContent)).toContain('来源');
    await page.close();
  });

  it('labels the recorded files in the file browser', async () => {
    const opening = s.events.find((e) => e.EventType === 'FileOpening' && e.EventData.RoomId === ORIGIN)!;
    const [dir, name] = (opening.EventData as { RelativePath: string }).RelativePath.split('/');
    const page = await browser.newPage();
    await page.goto(`${s.url}/ui/#/files/${encodeURIComponent(dir!)}/`);
    await page.waitForSelector(`tr[data-file="${name}"] [data-badge="source"]`, { timeout: 30_000 });
    expect(await page.$eval(`tr[data-file="${name}"] [data-badge="source"]`, (el) => el.getAttribute('data-source'))).toBe('origin');
    await page.close();
  });
});
