// `liverec simulate` as a real process: prints its URL, pre-creates rooms, stops on SIGTERM.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEntry, packageRoot } from '../../src/paths.js';
import { liveFetch } from './helpers.js';

const main = cliEntry;

/** Spawns `liverec simulate …` and resolves its URL from the first stdout line that names it. */
function simulate(args: string[]): { url: Promise<string>; out: () => string; exited: Promise<number | null>; kill: () => void } {
  const child = spawn(process.execPath, [main, 'simulate', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL line; stdout: ${out}`)), 15_000);
    child.stdout.on('data', () => {
      const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
  });
  return { url, out: () => out, exited, kill: () => child.kill('SIGTERM') };
}

describe('liverec simulate', () => {
  it('prints its URL, serves N live rooms from --clip, and exits 0 on SIGTERM', async () => {
    expect(existsSync(main), 'run `npx tsc -p .` first: the CLI runs from dist/').toBe(true);
    const clip = join(packageRoot, 'test', 'fixtures', 'media', 'h264-aac.flv');
    const sim = simulate(['--port', '0', '--rooms', '3', '--bitrate-kbps', '900', '--clip', clip]);
    try {
      const url = await sim.url;
      type Room = { roomId: number; shortId: number; name: string; live: boolean; bitrateKbps: number; padWithFiller: boolean; content: { name: string } | null };
      const rooms = (await (await fetch(`${url}/_sim/rooms`)).json()) as Room[];
      expect(rooms.map((r) => [r.roomId, r.shortId, r.name, r.live, r.bitrateKbps, r.padWithFiller, r.content?.name])).toEqual([
        [10001, 1, 'sim-1', true, 900, false, 'h264-aac.flv'],
        [10002, 2, 'sim-2', true, 900, false, 'h264-aac.flv'],
        [10003, 3, 'sim-3', true, 900, false, 'h264-aac.flv'],
      ]);
      const info = (await (await liveFetch(url, '/xlive/web-room/v1/index/getInfoByRoom', { room_id: 2 })).json()) as { data: { room_info: { room_id: number } } };
      expect(info.data.room_info.room_id).toBe(10002);
    } finally {
      sim.kill();
    }
    expect(await sim.exited).toBe(0);
    expect(sim.out()).toMatch(/stopped/);
  });

  it('sends danmaku in its pre-created rooms at a modest default rate, stated in --help; --danmaku-rate 0 turns it off', async () => {
    const help = spawn(process.execPath, [main, 'simulate', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    help.stdout.on('data', (d: Buffer) => (text += d.toString()));
    await new Promise((r) => help.on('exit', r));
    expect(text.replace(/\s+/g, ' ')).toMatch(/--danmaku-rate <n> +danmaku messages a second in each pre-created room .*0 = none \(default: 2\)/);
    for (const [args, rate] of [[[], 2], [['--danmaku-rate', '0'], 0], [['--danmaku-rate', '0.5'], 0.5]] as [string[], number][]) {
      const sim = simulate(['--port', '0', '--rooms', '2', '--small-clips', ...args]);
      try {
        const url = await sim.url;
        for (const id of [10001, 10002]) {
          const sent = (await (await fetch(`${url}/_sim/rooms/${id}/danmaku-sent`)).json()) as { rate: number };
          expect(sent.rate, args.join(' ')).toBe(rate);
        }
      } finally {
        sim.kill();
      }
      expect(await sim.exited).toBe(0);
    }
  });

  it('rejects a bad option with a clear message and exit code 2', async () => {
    const child = spawn(process.execPath, [main, 'simulate', '--rooms', 'many'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code).toBe(2);
    expect(err).toMatch(/--rooms must be an integer/);
  });

  it('--lenient accepts unsigned, buvid-less calls; --special-rooms adds paid, password, guard-only and DRM-only rooms', async () => {
    const sim = simulate(['--port', '0', '--small-clips', '--lenient', '--special-rooms']);
    try {
      const url = await sim.url;
      expect(sim.out()).toMatch(/lenient/);
      const rooms = (await (await fetch(`${url}/_sim/rooms`)).json()) as { roomId: number; special: string | null }[];
      expect(rooms.map((r) => [r.roomId, r.special])).toEqual([[20001, 'paid'], [20002, 'password'], [20003, 'guardOnly'], [20004, 'drmOnly']]);
      const info = (await (await liveFetch(url, '/xlive/web-room/v1/index/getInfoByRoom', { room_id: 20001 }, { sign: false, buvid3: '' })).json()) as { code: number };
      expect(info.code).toBe(0);
    } finally {
      sim.kill();
    }
    expect(await sim.exited).toBe(0);
  });
});
