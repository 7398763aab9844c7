// Locks survive PID reuse: a crash never blocks the next start, also when the lock names our own pid (PID 1 in a container) or a live unrelated process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import { WebhookOutbox } from '../../src/webhook/outbox.js';
import { tempWorkDir, until } from '../webhook/helpers.js';

const silent = pino({ level: 'silent' });
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(): { dir: string; lock: string; outbox: () => WebhookOutbox } {
  const work = tempWorkDir();
  cleanups.push(work.cleanup);
  mkdirSync(join(work.dir, '.liverec'), { recursive: true });
  const outbox = (): WebhookOutbox => {
    const o = new WebhookOutbox({ workDir: work.dir, logger: silent, getSettings: () => ({}) });
    cleanups.push(() => o.close());
    return o;
  };
  return { dir: work.dir, lock: join(work.dir, '.liverec', 'webhook-outbox.jsonl.lock'), outbox };
}

function startChild(args: string[]): ChildProcess {
  const child = spawn(args[0]!, args.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] });
  cleanups.push(() => void child.kill('SIGKILL'));
  return child;
}

it('a lock naming this very pid but not held here (a restarted PID 1) is taken over', async () => {
  const { lock, outbox } = setup();
  writeFileSync(lock, `${process.pid}\n`);
  await outbox().start();
  expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid });
  // A second outbox of this process on the same journal is still refused.
  await expect(outbox().start()).rejects.toMatchObject({ code: 'WEBHOOK_JOURNAL_LOCKED', message: expect.stringContaining('in this process') });
});

it('a lock naming a live process that is not its owner (pid reused) is taken over, in both lock formats', async () => {
  const sleeper = startChild(['sleep', '120']);
  await until(() => sleeper.pid !== undefined, 10_000, 'sleep to start');
  for (const text of [`${sleeper.pid}\n`, JSON.stringify({ pid: sleeper.pid, start: '1', boot: 'an-earlier-boot', token: 'x' })]) {
    const { lock, outbox } = setup();
    writeFileSync(lock, text);
    const o = outbox();
    await o.start();
    await o.close();
  }
});

it('a lock held by a live liverec process still refuses; after its kill -9 the next start works', async () => {
  const { dir, outbox } = setup();
  const script = fileURLToPath(new URL('../webhook/crash-child.ts', import.meta.url));
  const child = startChild([process.execPath, '--import', 'tsx', script, dir, 'http://127.0.0.1:9/hook']);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
  await expect(outbox().start()).rejects.toMatchObject({ code: 'WEBHOOK_JOURNAL_LOCKED', message: expect.stringContaining(`process ${child.pid}`) });
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  await outbox().start();
});
