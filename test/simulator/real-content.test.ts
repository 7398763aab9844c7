// Real content by default: `liverec simulate` serves a generated 1080p clip near the asked bitrate, with no filler.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { openStream } from '../../src/bilibili/stream-download.js';
import { FlvParser } from '../../src/flv/parser.js';
import { TagType } from '../../src/flv/tag.js';
import { cliEntry } from '../../src/paths.js';
import { collect } from './helpers.js';

const main = cliEntry;

/** Starts `liverec simulate` with `args`; resolves its URL (the first start encodes the clip: allow a minute or two). */
async function simulate(args: string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [main, 'simulate', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.on('exit', (code) => reject(new Error(`simulate exited ${code}: ${err}`)));
  });
  return { url, stop: async () => void (child.kill('SIGTERM'), await exited) };
}

describe('simulator content', () => {
  it('serves generated 1080p H.264 at about the asked bitrate, without filler unless --pad-with-filler', async () => {
    const sim = await simulate(['--rooms', '1', '--bitrate-kbps', '3000']);
    try {
      const room = ((await (await fetch(`${sim.url}/_sim/rooms`)).json()) as { content: { name: string; kbps: number } }[])[0]!;
      expect(room.content.name).toMatch(/1920x1080/);
      // 3 Mbps video + 128 kbps audio + the per-frame SEI.
      expect(room.content.kbps).toBeGreaterThan(2700);
      expect(room.content.kbps).toBeLessThan(3600);
      const got = await collect(await openStream(`${sim.url}/live-bvc/1/live_10001_1.flv?qn=10000`), 1500);
      const { tags } = new FlvParser().push(got.data);
      const video = tags.filter((t) => t.type === TagType.Video && t.nalus);
      expect(video.length).toBeGreaterThan(20);
      expect(video.flatMap((t) => t.nalus!.map((n) => n.type))).not.toContain(12);
    } finally {
      await sim.stop();
    }
    const padded = await simulate(['--rooms', '1', '--bitrate-kbps', '3000', '--small-clips', '--pad-with-filler']);
    try {
      const got = await collect(await openStream(`${padded.url}/live-bvc/1/live_10001_1.flv?qn=10000`), 1500);
      const { tags } = new FlvParser().push(got.data);
      expect(tags.filter((t) => t.type === TagType.Video && t.nalus).flatMap((t) => t.nalus!.map((n) => n.type))).toContain(12);
    } finally {
      await padded.stop();
    }
  }, 180_000);
});
