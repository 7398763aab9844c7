// Mistakes the command line refuses: each names the problem in one line, and the work directory is left exactly as it was.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, runCli, startCli } from './helpers.js';

const root = mkdtempSync(join(tmpdir(), 'liverec-misconf-'));
chmodSync(root, 0o755); // an unprivileged user must reach the directories below (the unwritable case)
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const emptyDir = (): string => {
  const d = join(root, `w${n++}`);
  mkdirSync(d);
  return d;
};
/** Everything under `dir`, hidden entries included. */
const contents = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();

describe('refused flag values: one line, exit 2, nothing written', () => {
  const cases: [string[], RegExp][] = [
    [['--bind', '99999'], /--bind <url\|port>' argument '99999' is invalid\. Use a port from 0 to 65535/],
    [['--bind', 'notaport'], /argument 'notaport' is invalid/],
    [['--http-bind', 'http://[::1:2356'], /--http-bind <url\|port>' argument .* is invalid/],
    [['--rooms-per-worker', 'abc'], /--rooms-per-worker <n>' argument 'abc' is invalid\. It must be a whole number from 1 to 1024/],
    [['--rooms-per-worker', '0'], /argument '0' is invalid/],
    [['--rooms-per-worker', '-3'], /argument '-3' is invalid/],
    [['--rooms-per-worker', '2.5'], /argument '2\.5' is invalid/],
    [['--max-rooms', 'lots'], /--max-rooms <n>' argument 'lots' is invalid/],
    [['--enable-file-browser', 'maybe'], /--enable-file-browser <bool>' argument 'maybe' is invalid\. Use true or false/],
    [['--log-format', 'xml'], /--log-format <format>' argument 'xml' is invalid\. Use one of pretty, json/],
    [['-l', 'loud'], /--loglevel: unknown log level "loud"/],
  ];
  it.each(cases)('run %j', async (args, message) => {
    const dir = emptyDir();
    const r = await runCli(['run', dir, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^liverec: /);
    expect(contents(dir)).toEqual([]);
  });

  it.each([
    [['demo', '--seconds', 'x'], /--seconds <n>' argument 'x' is invalid/],
    [['demo', '--port', '70000'], /--port <port>' argument '70000' is invalid/],
    [['portable', 'OUT', '12abc'], /room id must be a positive integer: 12abc/],
    [['portable', 'OUT', '--record-mode', 'Fast'], /--record-mode must be Standard or RawData/],
    [['simulate', '--port', '-1'], /--port must be an integer/],
  ])('%j', async (args, message) => {
    const dir = emptyDir();
    const r = await runCli(args.map((a) => (a === 'OUT' ? join(dir, 'out') : a)), {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(contents(dir)).toEqual([]);
  });
});

describe('work directories that cannot be used', () => {
  it('a file', async () => {
    const file = join(emptyDir(), 'not-a-dir');
    writeFileSync(file, 'x');
    const r = await runCli(['run', file, '--bind', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`work directory ${file} is a file, not a directory`));
  });

  it('a missing one', async () => {
    const dir = join(emptyDir(), 'missing');
    const r = await runCli(['run', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/work directory .*missing does not exist/);
  });

  it('one this user cannot write', async () => {
    const dir = emptyDir();
    chmodSync(dir, 0o555);
    // root writes anywhere: run the command as an unprivileged user instead (node's own uid switch, no shell).
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(dir, 0, 0);
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [cli, 'run', dir, '--bind', '0'], { stdio: ['ignore', 'ignore', 'pipe'], ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/work directory .* is not writable by this user \(uid \d+\)/);
    expect(contents(dir)).toEqual([]);
  });

  it('one another liverec records into, and a port in use: refused before anything is written', async () => {
    const dir = emptyDir();
    const first = startCli(['run', dir, '--bind', '0', '-l', 'Warning']);
    let blocker: Server | undefined;
    try {
      await first.waitFor('stdout', /Now listening on/);
      const second = await runCli(['run', dir, '--bind', '0']);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(new RegExp(`work directory ${dir} is in use by another liverec \\(process ${first.child.pid}\\)`));

      // A port in use: the start fails, and the fresh work directory stays empty (no config.json, logs/ or .liverec/).
      blocker = createServer();
      const port = await new Promise<number>((resolve) => blocker!.listen(0, '127.0.0.1', () => resolve((blocker!.address() as { port: number }).port)));
      const fresh = emptyDir();
      const r = await runCli(['run', fresh, '--bind', `http://127.0.0.1:${port}`]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`cannot listen on http://127\\.0\\.0\\.1:${port}: .*EADDRINUSE.*already uses this port`));
      expect(contents(fresh)).toEqual([]);
    } finally {
      blocker?.close();
      first.child.kill('SIGTERM');
      await first.exit;
    }
  }, 60_000);
});

describe('config.json members liverec does not know', () => {
  it('are warned about at start with the nearest known name, and kept in the file, which a run that changes nothing leaves untouched', async () => {
    const dir = emptyDir();
    const text = `${JSON.stringify({
      version: 3,
      global: { RecordDanmakuu: { HasValue: true, Value: true }, TimingCheckInterval: { HasValue: true, Value: 600 } },
      rooms: [{ RoomId: { HasValue: true, Value: 41099 }, AutoRecrod: { HasValue: true, Value: true }, Cookie: { HasValue: true, Value: 'x' }, Zzzzzzzz: 1 }],
    }, null, 4)}`; // the user's own formatting: 4 spaces, no final newline
    writeFileSync(join(dir, 'config.json'), text);
    const p = startCli(['run', dir, '--bind', '0', '--log-format', 'json']);
    try {
      await p.waitFor('stdout', /Now listening on/);
    } finally {
      p.child.kill('SIGTERM');
    }
    await p.exit;
    const err = p.stderr();
    expect(err).toMatch(/unknown member rooms\.0\.AutoRecrod is ignored \(kept in the file\); did you mean AutoRecord\?/);
    expect(err).toMatch(/unknown member global\.RecordDanmakuu is ignored \(kept in the file\); did you mean RecordDanmaku\?/);
    expect(err).toMatch(/rooms\.0\.Cookie is ignored: Cookie is not a room setting/);
    expect(err).toMatch(/unknown member rooms\.0\.Zzzzzzzz is ignored \(kept in the file\)"/);
    expect(err).not.toMatch(/TimingCheckInterval/);
    // Nothing changed: the user's file is left as it was, byte for byte, and no backup of it is made.
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(text);
    expect(readdirSync(dir)).not.toContain('config.backup.json');
    // brec compatibility: the members stay in the file.
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { rooms: Record<string, unknown>[] };
    expect(saved.rooms[0]).toHaveProperty('AutoRecrod');
    expect(saved.rooms[0]).toHaveProperty('Zzzzzzzz', 1);
  }, 60_000);
});

describe('console logs', () => {
  it('are JSON when stderr is not a terminal, and pretty lines with the room id when asked', async () => {
    const dir = emptyDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ version: 3, global: {}, rooms: [{ RoomId: { HasValue: true, Value: 41098 }, AutoRecord: { HasValue: true, Value: false } }] }));
    const json = startCli(['run', dir, '--bind', '0']);
    const pretty = startCli(['run', emptyDir(), '--bind', '0', '--log-format', 'pretty'], { NO_COLOR: '1' });
    try {
      await json.waitFor('stderr', /"msg":"HTTP API listening"/);
      await pretty.waitFor('stderr', /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: HTTP API listening/m);
      expect(pretty.stderr()).not.toMatch(/^\{/m);
    } finally {
      json.child.kill('SIGTERM');
      pretty.child.kill('SIGTERM');
    }
    await Promise.all([json.exit, pretty.exit]);
  }, 60_000);
});
