// Settings → Accounts in Chromium: the QR code drawn in the page, its state following the phone (the simulator's scan
// and confirm), the account listed with its state, in both languages, and no cookie anywhere in the page.
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { control } from '../simulator/helpers.js';
import { eventually, startWebSetup, type WebSetup } from './setup.js';

describe('Settings → Accounts', () => {
  let s: WebSetup;
  let browser: Browser;
  let sim: string;

  beforeAll(async () => {
    await buildWeb();
    s = await startWebSetup({ rooms: [], record: [] });
    sim = String(s.service.recorder.config.effective('LiveApiHost')).replace(/\/$/, '');
    browser = await puppeteer.launch({ args: chromium.args, executablePath: await chromium.executablePath(), headless: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  for (const [lang, uid] of [['en', 5101], ['zh', 5102]] as const) {
    it(`logs in by QR code (${lang})`, async () => {
      const page = await browser.newPage();
      await page.goto(`${s.url}/ui/#/settings`, { waitUntil: 'domcontentloaded' });
      await page.evaluate(`localStorage.setItem('liverec.lang', '${lang}')`);
      await page.reload({ waitUntil: 'domcontentloaded' });
      const dict = ((await page.evaluate('window.__liverecI18n.dicts')) as Record<string, Record<string, string>>)[lang]!;
      const button = await page.waitForSelector('[data-action="account-login"]', { timeout: 30_000 });
      expect(await button!.evaluate((b) => b.textContent)).toBe(dict['accounts.login']);
      await button!.click();
      const box = await page.waitForSelector('[data-qr-state="waiting"] img.qr', { timeout: 30_000 });
      // A real QR code: an SVG with dark modules, drawn at the size asked.
      const src = await box!.evaluate((img) => (img as unknown as { src: string; naturalWidth: number }).src);
      expect(decodeURIComponent(src)).toMatch(/^data:image\/svg\+xml;utf8,<svg[\s\S]*<path/);
      expect(await box!.evaluate((img) => (img as unknown as { src: string; naturalWidth: number }).naturalWidth > 0)).toBe(true);
      const key = await page.$eval('[data-qr-key]', (d) => d.getAttribute('data-qr-key')!);
      expect((await control(sim, `/_sim/qrcode/${key}/scan`, {})).status).toBe(204);
      await page.waitForSelector('[data-qr-state="scanned"]', { timeout: 30_000 });
      expect(await page.$eval('[data-qr-state] p', (p) => p.textContent)).toBe(dict['accounts.qr.scanned']);
      expect((await control(sim, `/_sim/qrcode/${key}/confirm`, { uid }, 'POST')).status).toBe(204);
      await page.waitForSelector('[data-qr-state="confirmed"]', { timeout: 30_000 });
      const row = await page.waitForSelector(`[data-account="${uid}"][data-state="valid"]`, { timeout: 30_000 });
      const text = await row!.evaluate((li) => li.textContent ?? '');
      expect(text).toContain(`sim-user-${uid}`);
      expect(text).toContain(dict['accounts.state.valid']);
      const html = await page.content();
      for (const secret of s.service.accounts.secrets()) expect(html.includes(secret)).toBe(false);
      expect(await page.evaluate('[...window.__liverecI18n.missing]')).toEqual([]);
      await page.close();
    }, 90_000);
  }

  it('lists both accounts through the API, saved for the next start', async () => {
    const list = await eventually('two accounts', async () => {
      const l = (await (await fetch(`${s.url}/api/accounts`)).json()) as { uid: number }[];
      return l.length === 2 ? l : null;
    });
    expect(list.map((a) => a.uid).sort()).toEqual([5101, 5102]);
  });
});
