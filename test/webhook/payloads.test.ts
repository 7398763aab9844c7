// v1/v2 payload shapes over real HTTP, settings read at send time, invalid and blocked URLs skipped with a warning.
import { redactUrl } from '../../src/webhook/redact-url.js';
import { describe, expect, it, type TestContext } from 'vitest';
import { WebhookOutbox } from '../../src/webhook/outbox.js';
import { parseWebhookUrls, type WebhookSettings } from '../../src/webhook/settings.js';
import { isBlockedHost } from '../../src/webhook/blocked-hosts.js';
import { captureLogger, fileClosedEvent, sessionStartedEvent, startReceiver, streamStartedEvent, tempWorkDir, until, type Receiver } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const OFFSET_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+[+-]\d{2}:\d{2}$/;

async function receiver(t: TestContext): Promise<Receiver> {
  const r = await startReceiver(() => 200);
  t.onTestFinished(() => r.close());
  return r;
}

async function outboxWith(t: TestContext, settings: () => WebhookSettings) {
  const work = tempWorkDir();
  const cap = captureLogger();
  const outbox = new WebhookOutbox({ workDir: work.dir, getSettings: settings, logger: cap.log });
  await outbox.start();
  t.onTestFinished(async () => {
    await outbox.close();
    work.cleanup();
  });
  return { outbox, cap };
}

describe('URL settings', () => {
  it('splits on CR/LF, trims, drops empty lines, keeps duplicates, rejects non-http(s) and blocked hosts', () => {
    const raw = ' http://a.example/x \r\n\r\nhttps://b.example/y\n\n  \nftp://c.example/\nnot a url\n/relative\nhttp://a.example/x\rhttps://API.Bilibili.com/hook\nhttp://xbaidu.com/\nhttp://test.example.com./';
    const parsed = parseWebhookUrls(raw);
    expect(parsed.urls).toEqual(['http://a.example/x', 'https://b.example/y', 'http://a.example/x']);
    expect(parsed.rejected.map((r) => r.url)).toEqual(['ftp://c.example/', 'not a url', '/relative', 'https://API.Bilibili.com/hook', 'http://xbaidu.com/', 'http://test.example.com./']);
    expect(parseWebhookUrls(null).urls).toEqual([]);
    expect(parseWebhookUrls('   \r\n ').urls).toEqual([]);
    expect(isBlockedHost('hdslb.com')).toBe(true);
    expect(isBlockedHost('example.com')).toBe(false);
  });
});

describe.concurrent('payloads and settings over HTTP', () => {
  it('v2 envelope and v1 record for FileClosed have brec field names and types', async (t) => {
    const v1 = await receiver(t);
    const v2 = await receiver(t);
    const { outbox } = await outboxWith(t, () => ({ webHookUrls: v1.url, webHookUrlsV2: v2.url }));
    const event = fileClosedEvent(7);
    const eventId = outbox.publish(event);
    await v1.waitFor(1);
    await v2.waitFor(1);
    const p2 = JSON.parse(v2.requests[0].body);
    expect(Object.keys(p2)).toEqual(['EventType', 'EventTimestamp', 'EventId', 'EventData']);
    expect(p2.EventType).toBe('FileClosed');
    expect(p2.EventId).toBe(eventId);
    expect(p2.EventId).toMatch(UUID);
    expect(p2.EventTimestamp).toBe(event.EventTimestamp);
    expect(p2.EventTimestamp).toMatch(OFFSET_TIME);
    const d = p2.EventData;
    expect(Object.keys(d).sort()).toEqual(
      ['AreaNameChild', 'AreaNameParent', 'DanmakuConnected', 'Duration', 'FileCloseTime', 'FileOpenTime', 'FileSize', 'Name', 'Recording', 'RelativePath', 'RoomId', 'SessionId', 'ShortId', 'Streaming', 'Title'].sort(),
    );
    for (const k of ['RoomId', 'ShortId', 'FileSize', 'Duration']) expect(typeof d[k], k).toBe('number');
    for (const k of ['Name', 'Title', 'AreaNameParent', 'AreaNameChild', 'RelativePath', 'SessionId']) expect(typeof d[k], k).toBe('string');
    for (const k of ['Recording', 'Streaming', 'DanmakuConnected']) expect(typeof d[k], k).toBe('boolean');
    expect(d.FileOpenTime).toMatch(OFFSET_TIME);
    expect(d.FileCloseTime).toMatch(OFFSET_TIME);
    expect(d.FileSize).toBe(1_234_574);

    const p1 = JSON.parse(v1.requests[0].body);
    expect(Object.keys(p1)).toEqual(['EventRandomId', 'RoomId', 'Name', 'Title', 'RelativePath', 'FileSize', 'StartRecordTime', 'EndRecordTime']);
    expect(p1.EventRandomId).toMatch(UUID);
    expect(p1.EventRandomId).not.toBe(eventId);
    expect(p1).toMatchObject({ RoomId: 23058, Name: 'streamer', Title: 'a title', RelativePath: d.RelativePath, FileSize: d.FileSize, StartRecordTime: d.FileOpenTime, EndRecordTime: d.FileCloseTime });
    expect(v1.requests[0].headers['content-type']).toBe('application/json');
  });

  it('v1 only gets FileClosed; StreamStarted has no SessionId and Streaming true; SessionStarted has SessionId', async (t) => {
    const v1 = await receiver(t);
    const v2 = await receiver(t);
    const { outbox } = await outboxWith(t, () => ({ webHookUrls: v1.url, webHookUrlsV2: v2.url }));
    outbox.publish(streamStartedEvent());
    outbox.publish(sessionStartedEvent());
    outbox.publish(fileClosedEvent());
    await v2.waitFor(3);
    await v1.waitFor(1);
    const byType = Object.fromEntries(v2.requests.map((q) => JSON.parse(q.body)).map((p) => [p.EventType, p.EventData]));
    expect(byType.StreamStarted.Streaming).toBe(true);
    expect('SessionId' in byType.StreamStarted).toBe(false);
    expect(byType.SessionStarted.SessionId).toMatch(UUID);
    expect('RelativePath' in byType.SessionStarted).toBe(false);
    await new Promise((r) => setTimeout(r, 200));
    expect(v1.requests).toHaveLength(1);
  });

  it('settings changes apply to the next event without a restart', async (t) => {
    const a = await receiver(t);
    const b = await receiver(t);
    const settings: WebhookSettings = { webHookUrlsV2: a.url };
    const { outbox } = await outboxWith(t, () => settings);
    const first = outbox.publish(streamStartedEvent());
    await a.waitFor(1);
    settings.webHookUrlsV2 = `${b.url}\n${a.url}`;
    const second = outbox.publish(streamStartedEvent());
    await b.waitFor(1);
    await a.waitFor(2);
    settings.webHookUrlsV2 = '';
    expect(outbox.publish(streamStartedEvent())).toBeNull();
    expect(a.requests.map((q) => JSON.parse(q.body).EventId)).toEqual([first, second]);
    expect(b.requests.map((q) => JSON.parse(q.body).EventId)).toEqual([second]);
    expect(b.requests[0].body).toBe(a.requests[1].body);
  });

  it('invalid and blocked URLs are skipped with one warning per edit; the valid ones still get the event', async (t) => {
    const ok = await receiver(t);
    const { outbox, cap } = await outboxWith(t, () => ({ webHookUrlsV2: `file:///etc/passwd\n${ok.url}\nhttps://live.bilibili.com/hook\nnonsense` }));
    outbox.publish(streamStartedEvent());
    outbox.publish(streamStartedEvent());
    await ok.waitFor(2);
    const warnings = cap.find('webhook URL skipped');
    // Redacted (a URL may carry its receiver's token): scheme or origin, and a tag that tells them apart.
    expect(warnings.map((w) => w.url)).toEqual(['file:///etc/passwd', 'https://live.bilibili.com/hook', 'nonsense'].map(redactUrl));
    expect(warnings.map((w) => String(w.url).replace(/#.*/, ''))).toEqual(['file:…', 'https://live.bilibili.com/…', '…']);
    expect(warnings.every((w) => w.level === 40 && w.setting === 'WebHookUrlsV2')).toBe(true);
    await until(() => outbox.recentDeliveries().filter((d) => d.state === 'delivered').length === 2, 5000, 'deliveries');
    expect(new Set(outbox.recentDeliveries().map((d) => d.url))).toEqual(new Set([ok.url]));
  });
});
