// Notifications reach real servers on loopback: an SMTP server (smtp-server, STARTTLS and auth), an ntfy-compatible
// endpoint and a Telegram-compatible stub; from a stream going live and from the UI's test button; secrets stay out of logs.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { eventually, startWebSetup, type WebSetup } from './setup.js';

const ROOM = 47001;
const SMTP_PASS = 'smtp-Secret-Pass-9';
const BOT = '123456:Bot-Secret-Token';

interface Hit { path: string; headers: IncomingMessage['headers']; body: string }

async function httpServer(hits: Hit[], answer: (h: Hit) => string): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const h = { path: req.url ?? '', headers: req.headers, body };
      hits.push(h);
      res.setHeader('content-type', 'application/json');
      res.end(answer(h));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('notifications', () => {
  let s: WebSetup;
  let browser: Browser | undefined;
  const ntfy: Hit[] = [];
  const telegram: Hit[] = [];
  const mails: { text: string; secure: boolean; user: string | undefined }[] = [];
  const servers: Server[] = [];
  let smtp: SMTPServer;

  beforeAll(async () => {
    const n = await httpServer(ntfy, () => '{"id":"x"}');
    const tg = await httpServer(telegram, (h) => (h.path === `/bot${BOT}/sendMessage` ? '{"ok":true}' : '{"ok":false}'));
    servers.push(n.server, tg.server);
    smtp = new SMTPServer({
      secure: false, authOptional: false, logger: false,
      onAuth: (auth, _session, cb) => (auth.username === 'rec@example.com' && auth.password === SMTP_PASS ? cb(null, { user: auth.username }) : cb(new Error('bad login'))),
      onData: (stream, session, cb) => {
        let text = '';
        stream.on('data', (c: Buffer) => (text += c.toString()));
        stream.on('end', () => {
          mails.push({ text, secure: session.secure, user: session.user as string | undefined });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    await buildWeb();
    s = await startWebSetup({ rooms: [{ roomId: ROOM, name: 'notifier', title: 'notify me', live: false, bitrateKbps: 300 }], record: [ROOM] });
    const urls = [
      `ntfy://127.0.0.1:${n.port}/liverec-alerts`,
      `tgram://${BOT}/4242?api=http://127.0.0.1:${tg.port}`,
      `mailto://rec%40example.com:${SMTP_PASS}@127.0.0.1:${smtpPort}/me@example.com?verify=no`,
    ].join('\n');
    const saved = await fetch(`${s.url}/api/config/global`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ optionalNotifyUrls: { hasValue: true, value: urls } }),
    });
    expect(saved.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    for (const srv of servers) await new Promise((r) => srv.close(r));
    await new Promise<void>((r) => smtp?.close(() => r()));
  });

  it('a stream going live reaches ntfy, Telegram and e-mail (STARTTLS, authenticated)', async () => {
    s.sim.setLive(ROOM, true);
    await eventually('StreamStarted', () => s.events.some((e) => e.EventType === 'StreamStarted'), 60_000, 200).catch((e: Error) => {
      throw new Error(`${e.message}; events: ${s.events.map((x) => x.EventType).join(',')}; ntfy: ${ntfy.map((h) => h.headers.title).join(',')}`);
    });
    await eventually('ntfy stream start', () => ntfy.some((h) => /started streaming/.test(String(h.headers.title))), 60_000, 200);
    await eventually('telegram stream start', () => telegram.some((h) => h.body.includes('started streaming')), 30_000, 200);
    await eventually('mail stream start', () => mails.some((m) => m.text.includes('started streaming')), 30_000, 200);
    const hit = ntfy.find((h) => /started streaming/.test(String(h.headers.title)))!;
    expect(hit.path).toBe('/liverec-alerts');
    expect(hit.body).toContain('notify me');
    expect(JSON.parse(telegram[0]!.body)).toMatchObject({ chat_id: '4242' });
    expect(mails.every((m) => m.secure && m.user === 'rec@example.com')).toBe(true);
  }, 120_000);

  for (const lang of ['en', 'zh']) {
    it(`the test button (${lang}) sends to every target and lists each as sent`, async () => {
      const before = { ntfy: ntfy.length, telegram: telegram.length, mails: mails.length };
      browser ??= await puppeteer.launch({ args: chromium.args, executablePath: await chromium.executablePath(), headless: true });
      const page = await browser.newPage();
      await page.goto(`${s.url}/ui/#/settings`, { waitUntil: 'domcontentloaded' });
      await page.evaluate(`localStorage.setItem('liverec.lang', '${lang}')`);
      await page.reload({ waitUntil: 'domcontentloaded' });
      const button = await page.waitForSelector('[data-action="notify-test"]', { timeout: 30_000 });
      const dict = ((await page.evaluate('window.__liverecI18n.dicts')) as Record<string, Record<string, string>>)[lang]!;
      expect(await button!.evaluate((b) => b.textContent)).toBe(dict['notifyTest.send']);
      await button!.click();
      await page.waitForSelector('[data-notify-results] li', { timeout: 30_000 });
      const items = await page.$$eval('[data-notify-results] li', (lis) => lis.map((li) => ({ cls: li.className, text: li.textContent ?? '' })));
      expect(items).toHaveLength(3);
      expect(items.every((i) => i.cls === 'ok' && i.text.endsWith(dict['notifyTest.sent']!))).toBe(true);
      expect(items.map((i) => i.text).join(' ')).not.toMatch(new RegExp(`${SMTP_PASS}|${BOT}`));
      expect(ntfy.length).toBe(before.ntfy + 1);
      expect(telegram.length).toBe(before.telegram + 1);
      await eventually('test mail', () => mails.length === before.mails + 1, 10_000);
      expect(await page.evaluate('[...window.__liverecI18n.missing]')).toEqual([]);
      await page.close();
    });
  }

  it('the log never holds the SMTP password or the bot token', async () => {
    const logs = await (await fetch(`${s.url}/api/log/fetch`)).text();
    expect(logs).toContain('notification sent');
    expect(logs).not.toContain(SMTP_PASS);
    expect(logs).not.toContain(BOT);
  });

  it('POST /api/notify/test answers per target; a room opted out gets no notification', async () => {
    const res = await fetch(`${s.url}/api/notify/test`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(200);
    const results = (await res.json()) as { target: string; ok: boolean }[];
    expect(results.map((r) => r.target.split(':')[0])).toEqual(['ntfy', 'tgram', 'mailto']);
    expect(results.every((r) => r.ok)).toBe(true);
    const off = await fetch(`${s.url}/api/room/${ROOM}/config`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ optionalNotifyEnabled: { hasValue: true, value: false } }),
    });
    expect(off.status).toBe(200);
    const seen = ntfy.length;
    s.sim.setLive(ROOM, false);
    await eventually('stream ended', () => s.events.some((e) => e.EventType === 'StreamEnded'), 60_000, 200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(ntfy.length).toBe(seen);
  });
});
