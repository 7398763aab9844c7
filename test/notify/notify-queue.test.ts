// Notifications as durable jobs: a target that refuses is retried with backoff until it answers, a restart resumes
// a queued message, a target that never answers ends as a failed job, a long file job never holds a message back,
// and neither the journal nor the job list holds a secret. Real HTTP servers on loopback stand for ntfy and Telegram.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import type { RoomSettings } from '../../src/config/fields.js';
import { EventBus } from '../../src/events/bus.js';
import { Notifier } from '../../src/notify/notifier.js';
import { JOBS_JOURNAL_RELATIVE_PATH } from '../../src/post/journal.js';
import type { PostJob } from '../../src/post/job.js';
import type { RetryPolicy } from '../../src/post/retry.js';
import type { JobRunner } from '../../src/post/runner.js';
import { createServiceRunner } from '../../src/post/runners.js';
import { fileClosed, removeDir, startQueue, tempWorkDir, type QueueFixture } from '../post/queue-fixture.js';

const BOT = '424242:Bot-Secret-Token';
const PASS = 'ntfy-Secret-Pass';

/** A loopback endpoint that answers `status()` to each POST (null: never answers) and records the bodies. */
async function endpoint(status: () => number | null): Promise<{ server: Server; port: number; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      const code = status();
      if (code === null) return;
      res.statusCode = code;
      res.setHeader('content-type', 'application/json');
      res.end(code === 200 ? '{"ok":true}' : '{"ok":false}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => server.closeAllConnections());
  return { server, port: (server.address() as AddressInfo).port, bodies };
}

const FAST: RetryPolicy = { maxAttempts: 4, delayMs: () => 100 };
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(urls: string, retry: RetryPolicy, dir = tempWorkDir(), fileRunner?: JobRunner): { dir: string; fx: QueueFixture; notifier: Notifier } {
  const config = ConfigStore.fromText(JSON.stringify({ version: 3, global: { NotifyUrls: { HasValue: true, Value: urls } }, rooms: [] }), 'test');
  const service = createServiceRunner(() => ({}) as RoomSettings, () => ({ url: null, deleteLocal: false }), () => config.effective('NotifyUrls'));
  const runner: JobRunner = { run: (job, ctx) => (job.kind !== 'notify' && fileRunner ? fileRunner.run(job, ctx) : service.run(job, ctx)) };
  const fx = startQueue(dir, { PostCommand: fileRunner ? 'sleep' : '' }, retry, { runner });
  const notifier = new Notifier({ config, recorder: { notices: new Set(), roomSnapshot: () => null }, queue: fx.queue });
  notifier.attach(fx.bus);
  cleanups.push(() => notifier.close(), () => fx.queue.close());
  return { dir, fx, notifier };
}

const streamStarted = (fx: QueueFixture): void => fx.bus.emit({
  EventType: 'StreamStarted', EventTimestamp: '',
  EventData: { RoomId: 1001, ShortId: 0, Name: 'streamer', Title: 'evening stream', AreaNameParent: 'a', AreaNameChild: 'b', Recording: true, Streaming: true, DanmakuConnected: true },
});

async function until(what: string, ok: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const notices = (fx: QueueFixture): PostJob[] => fx.queue.list().filter((j) => j.kind === 'notify').sort((a, b) => a.id.localeCompare(b.id));

describe('notifications through the durable job queue', () => {
  it('retries a refusing target until it answers, sends each target once, and journals no secret', async () => {
    let ntfyCalls = 0;
    const ntfy = await endpoint(() => (++ntfyCalls <= 2 ? 500 : 200));
    const tg = await endpoint(() => 200);
    cleanups.push(() => ntfy.server.close(), () => tg.server.close());
    const { dir, fx } = setup(`ntfy://rec:${PASS}@127.0.0.1:${ntfy.port}/live\ntgram://${BOT}/777?api=http://127.0.0.1:${tg.port}`, FAST);
    cleanups.push(() => removeDir(dir));
    streamStarted(fx);
    await until('both targets done', () => notices(fx).length === 2 && notices(fx).every((j) => j.state === 'done'));
    const [n, t] = notices(fx);
    expect([n!.params.target, n!.attempts]).toEqual([`ntfy://127.0.0.1:${ntfy.port}/live`, 3]);
    expect([t!.params.target, t!.attempts]).toEqual(['tgram://…/777', 1]);
    expect(ntfy.bodies).toHaveLength(3);
    expect(ntfy.bodies[2]).toContain('evening stream');
    // The Telegram message went once: the ntfy retries never resent it.
    expect(tg.bodies).toHaveLength(1);
    expect(fx.events.filter((e) => e.EventType === 'PostProcessed')).toHaveLength(0);
    const journal = readFileSync(join(dir, JOBS_JOURNAL_RELATIVE_PATH), 'utf8');
    expect(journal).toContain('"kind":"notify"');
    expect(journal).not.toContain(BOT);
    expect(journal).not.toContain(PASS);
  });

  it('a restart resumes a notification cut short; a target that never answers ends as a failed job', async () => {
    let mode: 'hang' | 'up' | 'down' = 'hang';
    const ntfy = await endpoint(() => (mode === 'hang' ? null : mode === 'up' ? 200 : 503));
    cleanups.push(() => ntfy.server.close());
    const urls = `ntfy://127.0.0.1:${ntfy.port}/live`;
    // First run: the service stops while the target has the message and has not answered.
    const first = setup(urls, FAST);
    cleanups.push(() => removeDir(first.dir));
    streamStarted(first.fx);
    await until('the target to have it', () => ntfy.bodies.length === 1 && notices(first.fx)[0]?.state === 'running');
    await first.fx.queue.close();
    mode = 'up';
    const second = setup(urls, FAST, first.dir);
    await until('the resumed job', () => notices(second.fx)[0]?.state === 'done');
    expect(notices(second.fx)[0]!.attempts).toBe(2);
    expect(ntfy.bodies).toHaveLength(2);
    expect(ntfy.bodies[1]).toContain('evening stream');

    mode = 'down';
    const third = setup(urls, { maxAttempts: 2, delayMs: () => 50 });
    cleanups.push(() => removeDir(third.dir));
    streamStarted(third.fx);
    await until('the job to fail', () => notices(third.fx)[0]?.state === 'failed');
    expect(notices(third.fx)[0]!.attempts).toBe(2);
    expect(notices(third.fx)[0]!.error).toBe(`${urls}: HTTP 503`);
  });

  it('a notification never waits behind a long file job', async () => {
    const ntfy = await endpoint(() => 200);
    cleanups.push(() => ntfy.server.close());
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const fileRunner: JobRunner = { run: async () => (await held, {}) };
    const { dir, fx } = setup(`ntfy://127.0.0.1:${ntfy.port}/live`, FAST, undefined, fileRunner);
    cleanups.push(() => removeDir(dir));
    fx.bus.emit({ EventType: 'FileClosed', EventTimestamp: '', EventData: fileClosed('1001-streamer/a.flv') });
    await until('the file job to run', () => fx.queue.list().some((j) => j.kind === 'command' && j.state === 'running'));
    streamStarted(fx);
    await until('the notification', () => notices(fx)[0]?.state === 'done');
    expect(fx.queue.list().find((j) => j.kind === 'command')!.state).toBe('running');
    release();
    await fx.processed();
  });
});
