// Issue 36, secrets row: with auth on, a foreign origin holding cached credentials reads no webhook URL (deliveries, logs,
// log files), and every caller sees webhook URLs redacted; the redacted form still replays.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLocal } from '../../src/time.js';
import { eventually, simRooms, startWebSetup, type WebSetup } from '../web/setup.js';

const ROOM = 36301;
const SECRET = 'tok3n-s3cr3t-36';

describe('webhook secrets never cross an origin', () => {
  let s: WebSetup;
  let receiver: Server;
  let received = 0;
  let hook = '';
  const call = (path: string, init: RequestInit & { origin?: string } = {}): Promise<Response> => fetch(`${s.url}${path}`, {
    ...init, headers: { authorization: s.auth, ...(init.origin ? { origin: init.origin } : {}), ...(init.headers as Record<string, string> ?? {}) },
  });

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook/${SECRET}?token=${SECRET}`;
    s = await startWebSetup({ rooms: simRooms([ROOM]).map((r) => ({ ...r, live: false })), record: [ROOM], user: 'admin', pass: 'pw' });
    const set = await call('/api/config/global', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ optionalWebHookUrlsV2: { hasValue: true, value: hook } }) });
    expect(set.status).toBe(200);
    s.service.recorder.bus.emit({ EventType: 'StreamStarted', EventTimestamp: formatLocal(), EventData: {
      RoomId: ROOM, ShortId: 0, Name: 'n', Title: 't', AreaNameParent: 'p', AreaNameChild: 'c', Recording: false, Streaming: true, DanmakuConnected: false,
    } });
    await eventually('the webhook delivered', () => received > 0);
    await eventually('the delivery listed', async () => ((await (await call('/api/webhook/deliveries')).json()) as unknown[]).length > 0);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    receiver?.close();
  });

  it('a foreign origin with credentials is refused deliveries, logs and log files, without CORS', async () => {
    for (const path of ['/api/webhook/deliveries', '/api/log/fetch', '/file/logs/', '/file/logs/bilirec.txt']) {
      const res = await call(path, { origin: 'https://evil.example' });
      const text = await res.text();
      expect(res.status, path).toBe(403);
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
      expect(text, path).not.toContain(SECRET);
    }
  });

  it('the owner sees the webhook redacted in deliveries and logs, and replays it by the redacted form', async () => {
    const deliveries = (await (await call('/api/webhook/deliveries')).json()) as { eventId: string; url: string }[];
    expect(JSON.stringify(deliveries)).not.toContain(SECRET);
    expect(deliveries[0]!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…#[0-9a-f]{8}$/);
    const logs = await (await call('/api/log/fetch')).text();
    expect(logs).not.toContain(SECRET);
    const before = received;
    const replay = await call('/api/webhook/replay', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ eventId: deliveries[0]!.eventId, url: deliveries[0]!.url }) });
    expect(replay.status).toBe(200);
    expect(((await replay.json()) as { ok: boolean }).ok).toBe(true);
    expect(received).toBe(before + 1);
  });
});

// Issue 46, breaks 5: a notification error carried the bot token (notify-test answer, GET /api/jobs, logs, SSE), and a
// foreign origin's EventSource got access-control-allow-origin and the log frames while /api/log/fetch was refused.
describe('notification errors and the event stream keep secrets in', () => {
  const TOKEN = '4646464646:AAHsecretBotToken46secretBotToken46x';
  const ROOM46 = 46301;
  let s: WebSetup;
  const call = (path: string, init: RequestInit & { origin?: string } = {}): Promise<Response> => fetch(`${s.url}${path}`, {
    ...init, headers: { authorization: s.auth, ...(init.origin ? { origin: init.origin } : {}), ...(init.headers as Record<string, string> ?? {}) },
  });
  beforeAll(async () => {
    s = await startWebSetup({ rooms: simRooms([ROOM46]).map((r) => ({ ...r, live: false })), record: [ROOM46], user: 'admin', pass: 'pw' });
    // The break as found (an api= without a scheme), and an api= that passes as a URL but still fails to parse with the token in it.
    const urls = [`tgram://${TOKEN}/4601?api=127.0.0.1:1`, `tgram://${TOKEN}/4602?api=http://[bad`].join('\n');
    const set = await call('/api/config/global', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ optionalNotifyUrls: { hasValue: true, value: urls } }) });
    expect(set.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('the notify-test answer, the job list and the logs carry no token', async () => {
    const test = await call('/api/notify/test', { method: 'POST' });
    const answer = await test.text();
    expect(test.status).toBe(200);
    expect(answer).not.toContain(TOKEN);
    expect(answer).not.toContain(TOKEN.split(':')[1]);
    expect((JSON.parse(answer) as { ok: boolean }[]).some((r) => r.ok === false)).toBe(true);
    // A queued notification (stream start) whose send fails: its error is listed.
    s.service.recorder.bus.emit({ EventType: 'StreamStarted', EventTimestamp: formatLocal(), EventData: {
      RoomId: ROOM46, ShortId: 0, Name: 'n', Title: 't', AreaNameParent: 'p', AreaNameChild: 'c', Recording: false, Streaming: true, DanmakuConnected: false,
    } });
    let jobs = '';
    await eventually('the failed notification listed with its error', async () => {
      jobs = await (await call('/api/jobs')).text();
      return (JSON.parse(jobs) as { kind: string; error: string | null }[]).some((j) => j.kind === 'notify' && j.error !== null);
    });
    expect(jobs).not.toContain(TOKEN.split(':')[1]);
    const logs = await (await call('/api/log/fetch')).text();
    expect(logs).toContain('notify');
    expect(logs).not.toContain(TOKEN.split(':')[1]);
  });

  it('a foreign origin gets neither CORS nor log frames from /api/events; the own origin still gets the stream', async () => {
    const foreign = await call('/api/events', { origin: 'https://evil.example', headers: { accept: 'text/event-stream' } });
    const text = foreign.status === 200 ? '' : await foreign.text();
    if (foreign.status === 200) await foreign.body?.cancel();
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(text).not.toContain('"log"');
    const own = await call('/api/events', { origin: s.url, headers: { accept: 'text/event-stream' } });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toContain('text/event-stream');
    await own.body?.cancel();
  });
});
