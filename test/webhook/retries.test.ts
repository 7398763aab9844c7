// Retry behaviour against real receivers: 3 attempts at 1 s and 2 s gaps, identical bodies, give-up, refused, hang/timeout.
import { redactUrl } from '../../src/webhook/redact-url.js';
import { describe, expect, it, type TestContext } from 'vitest';
import { WebhookOutbox } from '../../src/webhook/outbox.js';
import { WebhookDeliveriesSchema } from '../../src/webhook/deliveries-schema.js';
import { captureLogger, refusedUrl, sleep, startReceiver, streamStartedEvent, tempWorkDir, until, type Receiver } from './helpers.js';

// Tests run concurrently, so each one cleans up only what it made.
async function setup(t: TestContext, urls: string, timeoutMs?: number) {
  const work = tempWorkDir();
  const cap = captureLogger();
  const outbox = new WebhookOutbox({ workDir: work.dir, getSettings: () => ({ webHookUrlsV2: urls, timeoutMs }), logger: cap.log });
  await outbox.start();
  t.onTestFinished(async () => {
    await outbox.close();
    work.cleanup();
  });
  return { outbox, cap, work };
}

async function receiver(t: TestContext, b: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(b);
  t.onTestFinished(() => r.close());
  return r;
}

describe.concurrent('webhook retries', () => {
  it('500, 500, 200: exactly 3 identical requests at least 1 s and 2 s apart', async (t) => {
    const r = await receiver(t, (n) => (n < 3 ? 500 : 200));
    const { outbox, cap } = await setup(t, r.url);
    const eventId = outbox.publish(streamStartedEvent());
    await until(() => cap.find('webhook delivered').length === 1, 10_000, 'delivery');
    await sleep(300);
    expect(r.requests).toHaveLength(3);
    expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
    expect(JSON.parse(r.requests[0].body).EventId).toBe(eventId);
    const gap1 = r.requests[1].at - r.requests[0].at;
    const gap2 = r.requests[2].at - r.requests[1].at;
    // Lower bounds only: the backoff timers guarantee them; an upper bound would measure the machine's load.
    expect(gap1).toBeGreaterThanOrEqual(950);
    expect(gap2).toBeGreaterThanOrEqual(1950);
    for (const q of r.requests) {
      expect(q.method).toBe('POST');
      expect(q.headers['content-type']).toBe('application/json');
      expect(q.headers['user-agent']).toMatch(/^liverec\/\d+\.\d+\.\d+/);
    }
    const [d] = WebhookDeliveriesSchema.parse(outbox.recentDeliveries());
    expect(d).toMatchObject({ eventId, eventType: 'StreamStarted', version: 2, url: r.url, attempts: 3, state: 'delivered', lastStatus: 200 });
    expect(cap.find('webhook attempt failed; will retry').map((l) => l.status)).toEqual([500, 500]);
  });

  it('always 500: exactly 3 requests, then given up and logged', async (t) => {
    const r = await receiver(t, () => 500);
    const { outbox, cap } = await setup(t, r.url);
    const eventId = outbox.publish(streamStartedEvent());
    await until(() => cap.find('webhook given up after 3 attempts').length === 1, 10_000, 'give-up');
    await sleep(2500); // a 4th attempt would have come 3 s after the 3rd at the earliest; make sure none is queued
    expect(r.requests).toHaveLength(3);
    const [line] = cap.find('webhook given up after 3 attempts');
    expect(line).toMatchObject({ eventId, url: redactUrl(r.url), attempts: 3, status: 500, code: 'WEBHOOK_HTTP_STATUS', level: 50 });
    expect(outbox.recentDeliveries()[0]).toMatchObject({ state: 'given-up', attempts: 3, lastStatus: 500, lastErrorCode: 'WEBHOOK_HTTP_STATUS' });
    expect(outbox.stats().loaded).toBe(0);
  });

  it('connection refused: 3 attempts, then given up', async (t) => {
    const url = await refusedUrl();
    const { outbox, cap } = await setup(t, url);
    outbox.publish(streamStartedEvent());
    await until(() => cap.find('webhook given up after 3 attempts').length === 1, 10_000, 'give-up');
    const attempts = cap.find('webhook attempt');
    expect(attempts.map((l) => l.attempt)).toEqual([1, 2, 3]);
    const [d] = outbox.recentDeliveries();
    expect(d).toMatchObject({ attempts: 3, state: 'given-up', lastStatus: null, lastErrorCode: 'WEBHOOK_NETWORK' });
    expect(d.lastError).toMatch(/ECONNREFUSED/);
  });

  it('a receiver that hangs: the attempt times out and is retried', async (t) => {
    const r = await receiver(t, (n) => (n === 1 ? 'hang' : 200));
    const { outbox, cap } = await setup(t, r.url, 300);
    outbox.publish(streamStartedEvent());
    await until(() => cap.find('webhook delivered').length === 1, 10_000, 'delivery');
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1].body).toBe(r.requests[0].body);
    // 300 ms timeout, then the 1 s backoff (the first request may reach the receiver late on a busy machine)
    expect(r.requests[1].at - r.requests[0].at).toBeGreaterThanOrEqual(1000);
    const [failed] = cap.find('webhook attempt failed; will retry');
    expect(failed).toMatchObject({ code: 'WEBHOOK_TIMEOUT', attempts: 1 });
  });

  it('a receiver that resets the connection is retried', async (t) => {
    const r = await receiver(t, (n) => (n === 1 ? 'reset' : 204));
    const { outbox, cap } = await setup(t, r.url);
    outbox.publish(streamStartedEvent());
    await until(() => cap.find('webhook delivered').length === 1, 10_000, 'delivery');
    expect(r.requests).toHaveLength(2);
    expect(cap.find('webhook attempt failed; will retry')[0]).toMatchObject({ code: 'WEBHOOK_NETWORK' });
  });
});
