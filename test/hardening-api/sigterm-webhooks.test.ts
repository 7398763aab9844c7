// SIGTERM: the stop's own FileClosed and SessionEnded reach a healthy (if not instant) receiver before the process exits.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliEntry } from '../../src/paths.js';
import { Simulator, type RunningSimulator } from '../../src/simulator/simulator.js';

const cli = cliEntry;
let running: RunningSimulator;
beforeAll(async () => {
  const sim = new Simulator();
  running = await sim.start();
  sim.createRoom({ roomId: 25001, name: 'term', live: true, bitrateKbps: 800 });
});
afterAll(() => running?.close());

it('every event of the stop is delivered (receiver answers after 300 ms) and the process exits 0', async () => {
  const events: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      events.push(JSON.parse(body).EventType as string);
      setTimeout(() => res.end(), 300);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const dir = mkdtempSync(join(tmpdir(), 'liverec-term-'));
  try {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({
      version: 3,
      global: { LiveApiHost: { HasValue: true, Value: running.url }, WebHookUrlsV2: { HasValue: true, Value: hook } },
      rooms: [{ RoomId: { HasValue: true, Value: 25001 }, AutoRecord: { HasValue: true, Value: true } }],
    }));
    const child = spawn(process.execPath, [cli, 'run', dir], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LIVEREC_LOG_LEVEL: 'info' } });
    let log = '';
    child.stderr!.on('data', (d) => (log += d));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 30_000;
    while (!events.includes('FileOpening') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(events).toContain('FileOpening');
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(events).toContain('FileClosed');
    expect(events).toContain('SessionEnded');
    const delivered = log.split('\n').filter((l) => l.includes('"webhook delivered"')).map((l) => JSON.parse(l).eventType as string);
    expect(delivered).toEqual(expect.arrayContaining(['FileClosed', 'SessionEnded']));
  } finally {
    await new Promise<void>((resolve) => (receiver.closeAllConnections(), receiver.close(() => resolve())));
    rmSync(dir, { recursive: true, force: true });
  }
});
