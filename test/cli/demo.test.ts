// `liverec demo` as a real process when its port is taken: brec's default 2356 falls back to a free port (the address
// printed is the one it got, once it listens); an asked-for port that is taken fails and leaves nothing behind.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'liverec-demo-test-'));
const held: Server[] = [];
afterAll(async () => {
  await Promise.all(held.map((s) => new Promise((r) => s.close(r))));
  rmSync(tmp, { recursive: true, force: true });
});

/** Holds `port` on 127.0.0.1 (0 = any); resolves the port, or null when another program already holds it. */
const hold = (port: number): Promise<number | null> => new Promise((resolve, reject) => {
  const s = createServer();
  s.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(null) : reject(err)));
  s.listen(port, '127.0.0.1', () => {
    held.push(s);
    resolve((s.address() as { port: number }).port);
  });
});

describe('liverec demo with its port taken', () => {
  it('falls back to a free port when 2356 is taken, prints that address once it listens, and records', async () => {
    await hold(2356); // taken by this test, or already by another program: either way the demo cannot have it
    const out = join(tmp, 'fallback');
    // Stopped by Ctrl+C once every room records, not after a fixed time: on a busy machine the rooms may take longer
    // than a short demo to start (the time limit itself is the demo's, not what this test checks).
    const p = startCli(['demo', '--seconds', '3000', '--out', out]);
    const [line, port] = await p.waitFor('stdout', /the web UI is at http:\/\/127\.0\.0\.1:(\d+)\/ui\/.*\n/, 300_000);
    expect(Number(port)).not.toBe(2356);
    expect(p.stdout()).toMatch(/port 2356 is in use/);
    // Printed once it listens: the address answers at once.
    const version = await fetch(`http://127.0.0.1:${port}/api/version`);
    expect(version.status, line).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/ui/`)).status).toBe(200);
    for (const room of [10001, 10002, 10003]) await p.waitFor('stdout', new RegExp(`FileOpening +room ${room} `), 300_000);
    p.child.kill('SIGINT');
    const { code } = await p.exit;
    expect(code, `${p.stdout()}\n${p.stderr()}`).toBe(0);
    expect(p.stdout()).toContain(`--bind ${port}`);
    // It records (what it records is the release-package test's subject).
    expect(readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.flv')).length).toBeGreaterThanOrEqual(1);
  }, 360_000);

  it('fails with exit 1 on a taken --port, printing no address and leaving no folder behind', async () => {
    const port = (await hold(0))!;
    const out = join(tmp, 'never');
    const r = await runCli(['demo', '--seconds', '3', '--port', String(port), '--out', out]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`cannot listen on http://127\\.0\\.0\\.1:${port}.*already uses this port`));
    expect(r.stdout).not.toMatch(/web UI/);
    expect(existsSync(out)).toBe(false);
  }, 360_000);
});
