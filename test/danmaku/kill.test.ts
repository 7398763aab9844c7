// kill -9 while recording danmaku at 50 messages/s: the XML on disk is a complete document, readable as is.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry } from '../../src/paths.js';
import { Simulator, type RunningSimulator } from '../../src/simulator/index.js';
import { sleep } from '../rooms/harness.js';
import { filesIn, readDanmaku } from './helpers.js';

const ROOM = 27101;
const cli = cliEntry;

describe('danmaku after kill -9', () => {
  let sim: Simulator;
  let running: RunningSimulator;
  const dir = mkdtempSync(join(tmpdir(), 'liverec-dm-kill-'));
  beforeAll(async () => {
    // Senders as a logged-in user sees them: the generated names carry the sequence readDanmaku matches on (a guest's
    // are masked, test/accounts/accounts-login.test.ts).
    sim = new Simulator({ guestDanmakuMask: false });
    running = await sim.start();
    sim.createRoom({ roomId: ROOM, live: true, bitrateKbps: 500 });
  });
  afterAll(async () => {
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves every element up to the last flush in a well-formed file', async () => {
    const child = spawn(process.execPath, [cli, 'portable', dir, String(ROOM), '--live-api-host', running.url, '-d', 'All'],
      { stdio: 'ignore', env: { ...process.env, LIVEREC_LOG_LEVEL: 'warn' } });
    const exit = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && filesIn(dir, '.xml').length === 0) await sleep(200);
    sim.danmakuRate(ROOM, { rate: 50 });
    const xml = (): string => filesIn(dir, '.xml')[0]!;
    while (Date.now() < deadline && (readFileSync(xml(), 'utf8').match(/^ {2}<(d|sc|gift|guard) /gm) ?? []).length < 100) await sleep(200);
    await sleep(333); // between flushes
    child.kill('SIGKILL');
    expect(await exit).toBe('SIGKILL');
    sim.danmakuRate(ROOM, { rate: 0 });
    const { items, text } = readDanmaku(xml()); // throws unless fast-xml-parser validates it
    expect(items.length).toBeGreaterThanOrEqual(100);
    expect(text.endsWith('</i>\n')).toBe(true);
    expect(new Set(items.map((i) => i.element))).toEqual(new Set(['d', 'sc', 'gift', 'guard']));
  }, 60_000);
});
