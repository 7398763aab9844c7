// `liverec run` / `portable` as real processes: start-up lines, no --bind, --config-override, HTTPS (PEM and PFX), -d.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator, type RunningSimulator } from '../../src/simulator/index.js';
import { probe } from '../support/media-tools.js';
import { jsonLines, runCli, startCli } from './helpers.js';

const TLS = join(import.meta.dirname, '../fixtures/tls');
const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'liverec-cli-'));
  dirs.push(d);
  return d;
};
const flvFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.flv')).map((f) => join(dir, f));
const config = (rooms: { id: number; auto: boolean }[], liveApiHost: string) => JSON.stringify({
  version: 3,
  global: { LiveApiHost: { HasValue: true, Value: liveApiHost } },
  rooms: rooms.map((r) => ({ RoomId: { HasValue: true, Value: r.id }, AutoRecord: { HasValue: true, Value: r.auto } })),
});

function httpsGet(url: string, ca: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { ca, servername: 'localhost' }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject).end();
  });
}

describe('liverec run and portable', () => {
  let sim: Simulator;
  let running: RunningSimulator;
  beforeAll(async () => {
    sim = new Simulator({ guestQnCap: false }); // FLV at the asked qn: this file is about the run's lifecycle, not a guest's quality
    running = await sim.start();
    sim.createRoom({ roomId: 41001, name: 'cli-live', title: 'cli', live: true, bitrateKbps: 800 });
  });
  afterAll(async () => {
    await running?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('prints ASP.NET start-up lines once the API listens (content root = work directory) and the UI\'s address, and uses --config-override', async () => {
    const dir = tempDir();
    const other = join(tempDir(), 'elsewhere.json');
    writeFileSync(other, config([{ id: 41002, auto: false }], running.url));
    const p = startCli(['run', dir, '--bind', 'http://127.0.0.1:0', '--config-override', other, '-l', 'Warning']);
    try {
      const [, url] = await p.waitFor('stdout', /Now listening on: (http:\/\/127\.0\.0\.1:\d+)/);
      // brec's lines, the work directory as the content root (not the shell's folder), then the UI's address.
      const [, ui] = await p.waitFor('stdout', /Web UI: (http:\/\/\S+)\n/);
      expect(p.stdout()).toMatch(/info: Microsoft\.Hosting\.Lifetime\[14\]\n {6}Now listening on: http:\/\/127\.0\.0\.1:\d+\n/);
      expect(p.stdout()).toContain(`info: Microsoft.Hosting.Lifetime[0]\n      Content root path: ${dir}\n`);
      expect(p.stdout().indexOf('Web UI:')).toBeGreaterThan(p.stdout().indexOf('Content root path:'));
      expect(ui).toBe(`${url}/ui/`);
      const page = await fetch(ui!);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<html/i);
      const rooms = (await (await fetch(`${url}/api/room`)).json()) as { roomId: number }[];
      expect(rooms.map((r) => r.roomId)).toEqual([41002]);
      expect(readdirSync(dir)).not.toContain('config.json'); // the override file is the config
    } finally {
      p.child.kill('SIGTERM');
    }
    expect((await p.exit).code).toBe(0);
  });

  it('without --bind keeps running and records, logs the session at info level, and stops cleanly on SIGTERM', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), config([{ id: 41001, auto: true }], running.url));
    const p = startCli(['run', dir, '-l', 'information', '--flog', 'Information']);
    await p.waitFor('stderr', /Web API not enabled/);
    await p.waitFor('stderr', /"msg":"file opened/);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !flvFiles(dir).some((f) => statSync(f).size > 60_000)) await new Promise((r) => setTimeout(r, 200));
    expect(p.stdout()).not.toMatch(/Now listening/);
    p.child.kill('SIGTERM');
    expect(await p.exit).toEqual({ code: 0, signal: null });

    const [file] = flvFiles(dir);
    expect((await probe(file!)).errors).toBe('');
    const lines = jsonLines(p.stderr());
    const room = lines.filter((l) => l.roomId === 41001).map((l) => String(l.msg));
    const order = ['stream started', 'recording started', 'file opened', 'file closed', 'session ended'];
    const at = order.map((m) => room.findIndex((x) => x.startsWith(m)));
    expect(at.every((i) => i >= 0), `room lines: ${room.join(' | ')}`).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const closed = lines.find((l) => String(l.msg).startsWith('file closed'))!;
    expect(closed.level).toBe(30);
    expect(closed.size).toBe(statSync(file!).size);
    expect(closed.duration).toBeGreaterThan(0.5);
    expect(String(closed.path)).toMatch(/\.flv$/);
    expect(lines.find((l) => String(l.msg).startsWith('file opened'))!.path).toBe(closed.path);

    // The file log: CLEF lines in <workdir>/logs/bilirec<yyyyMMdd>.txt, room lines with RoomId.
    const logs = readdirSync(join(dir, 'logs'));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^bilirec\d{8}\.txt$/);
    const clef = readFileSync(join(dir, 'logs', logs[0]!), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(clef.find((l) => String(l['@mt']).startsWith('file closed'))).toMatchObject({ RoomId: 41001, size: closed.size });
    expect(clef.every((l) => typeof l['@t'] === 'string')).toBe(true);
  }, 60_000);

  it('serves HTTPS with a PEM certificate and key', async () => {
    const dir = tempDir();
    const p = startCli(['run', dir, '--bind', 'https://127.0.0.1:0', '--cert-pem-path', join(TLS, 'cert.pem'), '--cert-key-path', join(TLS, 'key.pem'), '-l', 'Error']);
    try {
      const [, url] = await p.waitFor('stdout', /Now listening on: (https:\/\/127\.0\.0\.1:\d+)/);
      const res = await httpsGet(`${url}/api/version`, readFileSync(join(TLS, 'cert.pem')));
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body).major).toMatch(/^\d+$/);
    } finally {
      p.child.kill('SIGTERM');
    }
    expect((await p.exit).code).toBe(0);
  });

  it('portable: HTTPS with a PFX and its password, and --danmaku flags set as brec sets them', async () => {
    const dir = tempDir();
    const p = startCli(['portable', dir, '--bind', 'https://127.0.0.1:0', '--pfx', join(TLS, 'cert.pfx'), '--cert-password', 'liverec', '-d', 'SuperChat,gift', '-l', 'Error']);
    try {
      const [, url] = await p.waitFor('stdout', /Now listening on: (https:\/\/127\.0\.0\.1:\d+)/);
      const res = await httpsGet(`${url}/api/config/global`, readFileSync(join(TLS, 'cert.pem')));
      const g = JSON.parse(res.body) as Record<string, { hasValue: boolean; value: unknown }>;
      expect([g.optionalRecordDanmaku, g.optionalRecordDanmakuSuperChat, g.optionalRecordDanmakuGift, g.optionalRecordDanmakuGuard, g.optionalRecordDanmakuRaw])
        .toEqual([true, true, true, false, false].map((value) => ({ hasValue: true, value })));
    } finally {
      p.child.kill('SIGTERM');
    }
    expect((await p.exit).code).toBe(0);
  });

  it('refuses unknown log levels, a missing certificate half and bad danmaku flags with a clear message', async () => {
    const dir = tempDir();
    const cases: [string[], RegExp][] = [
      [['run', dir, '-l', 'bogus'], /--loglevel: unknown log level "bogus"; use one of Verbose, Debug, Information, Warning, Error, Fatal/],
      [['run', dir, '--flog', 'loud'], /--logfilelevel: unknown log level "loud"/],
      [['run', dir, '--bind', 'https://127.0.0.1:0', '--pem', join(TLS, 'cert.pem')], /--cert-pem-path needs --cert-key-path/],
      [['run', dir, '--bind', 'https://127.0.0.1:0'], /needs a certificate/],
      [['portable', dir, '-d', 'Everything'], /--danmaku: unknown flag Everything/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args)));
    results.forEach((r, i) => {
      expect(r.code, cases[i]![0].join(' ')).not.toBe(0);
      expect(r.stderr).toMatch(cases[i]![1]);
    });
  }, 60_000);
});
