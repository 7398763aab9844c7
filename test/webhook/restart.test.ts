// Restarts and crashes: undelivered (event, URL) pairs resume with the same body and only their remaining attempts.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, type TestContext } from 'vitest';
import { WebhookOutbox } from '../../src/webhook/outbox.js';
import type { WebhookSettings } from '../../src/webhook/settings.js';
import { captureLogger, sleep, startReceiver, streamStartedEvent, tempWorkDir, until, type Behaviour, type Receiver } from './helpers.js';

async function receiver(t: TestContext, b: Behaviour): Promise<Receiver> {
  const r = await startReceiver(b);
  t.onTestFinished(() => r.close());
  return r;
}

function workDir(t: TestContext): string {
  const w = tempWorkDir();
  t.onTestFinished(w.cleanup);
  return w.dir;
}

function outbox(t: TestContext, dir: string, settings: WebhookSettings, extra: { windowPerUrl?: number } = {}) {
  const cap = captureLogger();
  const o = new WebhookOutbox({ workDir: dir, getSettings: () => settings, logger: cap.log, ...extra });
  t.onTestFinished(() => o.close());
  return { o, cap };
}

const journalText = (o: WebhookOutbox): string => readFileSync(o.journalPath, 'utf8');

describe.concurrent('webhook outbox restarts', () => {
  it('closed between attempt 1 and 2: the new outbox waits out the backoff and makes only attempts 2 and 3', async (t) => {
    const r = await receiver(t, () => 500);
    const dir = workDir(t);
    const first = outbox(t, dir, { webHookUrlsV2: r.url });
    await first.o.start();
    const eventId = first.o.publish(streamStartedEvent());
    await until(() => first.cap.find('webhook attempt failed; will retry').length === 1, 5000, 'attempt 1');
    await first.o.close();
    expect(journalText(first.o)).toContain('"r":"res"');

    const second = outbox(t, dir, { webHookUrlsV2: r.url });
    await second.o.start();
    await until(() => second.cap.find('webhook given up after 3 attempts').length === 1, 10_000, 'give-up');
    await sleep(2500);
    expect(r.requests).toHaveLength(3);
    expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
    expect(JSON.parse(r.requests[0].body).EventId).toBe(eventId);
    expect(r.requests[1].at - r.requests[0].at).toBeGreaterThanOrEqual(950);
    expect(r.requests[2].at - r.requests[1].at).toBeGreaterThanOrEqual(1950);
    expect(second.cap.find('webhook attempt').map((l) => l.attempt)).toEqual([2, 3]);
    // Finished entries are compacted away: nothing is pending after another compaction.
    expect(second.o.compact()).toMatchObject({ kept: 0, dropped: 1 });
    expect(journalText(second.o)).toBe('');
  });

  it('closed while attempt 2 is in flight: the cut attempt counts, so only attempt 3 follows', async (t) => {
    const r = await receiver(t, (n) => (n === 1 ? 500 : n === 2 ? 'hang' : 200));
    const dir = workDir(t);
    const first = outbox(t, dir, { webHookUrlsV2: r.url });
    await first.o.start();
    first.o.publish(streamStartedEvent());
    await r.waitFor(2);
    await first.o.close();

    const second = outbox(t, dir, { webHookUrlsV2: r.url });
    await second.o.start();
    await until(() => second.cap.find('webhook delivered').length === 1, 10_000, 'delivery');
    await sleep(300);
    expect(r.requests).toHaveLength(3);
    expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
    expect(second.cap.find('webhook attempt').map((l) => l.attempt)).toEqual([3]);
    expect(second.o.recentDeliveries()[0]).toMatchObject({ attempts: 3, state: 'delivered' });
  });

  it('a cut third attempt is given up at the next start, never retried', async (t) => {
    const r = await receiver(t, (n) => (n < 3 ? 500 : 'hang'));
    const dir = workDir(t);
    const first = outbox(t, dir, { webHookUrlsV2: r.url });
    await first.o.start();
    first.o.publish(streamStartedEvent());
    await r.waitFor(3, 10_000);
    await first.o.close();
    const second = outbox(t, dir, { webHookUrlsV2: r.url });
    await second.o.start();
    await sleep(300);
    expect(r.requests).toHaveLength(3);
    expect(second.cap.find('webhook given up after 3 attempts (the last one was interrupted)')).toHaveLength(1);
    expect(second.o.recentDeliveries()[0]).toMatchObject({ state: 'given-up', attempts: 3, lastErrorCode: 'WEBHOOK_INTERRUPTED' });
  });

  it('a killed process (SIGKILL after attempt 1) resumes with attempts 2 and 3 only', async (t) => {
    const r = await receiver(t, (n) => (n < 3 ? 503 : 200));
    const dir = workDir(t);
    const script = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, dir, r.url], { stdio: ['ignore', 'pipe', 'inherit'] });
    t.onTestFinished(() => void child.kill('SIGKILL'));
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await r.waitFor(1, 20_000);
    const probe = outbox(t, dir, { webHookUrlsV2: r.url });
    await until(() => readFileSync(probe.o.journalPath, 'utf8').includes('"r":"res"'), 5000, 'attempt 1 outcome journaled');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const eventId = out.trim();

    await probe.o.start();
    await until(() => probe.cap.find('webhook delivered').length === 1, 10_000, 'delivery');
    expect(r.requests).toHaveLength(3);
    expect(r.requests.map((q) => JSON.parse(q.body).EventId)).toEqual([eventId, eventId, eventId]);
    expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
    expect(probe.cap.find('webhook attempt').map((l) => l.attempt)).toEqual([2, 3]);
  });

  it('events spilled to the journal and events published while stopped are all delivered after a restart', async (t) => {
    let mode: 'hang' | 'ok' = 'hang';
    const r = await receiver(t, () => (mode === 'hang' ? 'hang' : 200));
    const dir = workDir(t);
    const first = outbox(t, dir, { webHookUrlsV2: r.url }, { windowPerUrl: 8 });
    await first.o.start();
    const ids = Array.from({ length: 30 }, () => first.o.publish(streamStartedEvent())!);
    await r.waitFor(4);
    expect(first.o.stats().lanes[0]).toMatchObject({ loaded: 8, inFlight: 4, spilled: true });
    await first.o.close();
    ids.push(first.o.publish(streamStartedEvent())!); // after close: journaled for the next start
    mode = 'ok';

    const second = outbox(t, dir, { webHookUrlsV2: r.url }, { windowPerUrl: 8 });
    await second.o.start();
    await until(() => second.cap.find('webhook delivered').length === ids.length, 10_000, 'all delivered');
    const received = r.requests.map((q) => JSON.parse(q.body).EventId as string);
    expect(new Set(received)).toEqual(new Set(ids));
    // The 4 cut first attempts were sent again once; nobody else got a duplicate.
    expect(received.length).toBe(ids.length + 4);
    expect(second.o.stats().maxLoaded).toBeLessThanOrEqual(8);
    second.o.compact();
    expect(journalText(second.o)).toBe('');
  });
});
