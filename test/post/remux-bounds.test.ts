// Issue 46, break 3: a remux's memory does not follow what a file declares. A trun claiming 4 billion samples and a
// TS whose one video PES never ends (120 MB) each end cleanly, in a fresh process, with a peak RSS far below
// what the input would cost held whole: the counts are checked against the bytes that hold them before anything is
// allocated, and one PES is held up to 16 MiB.
import { execFile } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { boxes } from '../../src/hls/mp4-boxes.js';
import { clip } from './media.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-remux-bounds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const child = fileURLToPath(new URL('./remux-rss-child.ts', import.meta.url));
/** A remux process's peak with tsx loaded is ~80 MB on the clean clips; holding the TS's PES whole costs 3× its size. */
const RSS_BOUND_MB = 200;

interface Outcome { ok: boolean; error?: string; skipped?: { offset: number; bytes: number; reason: string }[]; skippedBytes?: number; maxRssMb: number }

function remuxInChild(input: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    // The old-generation cap makes a runaway fail fast instead of taking the machine; the time bound is generous.
    execFile(process.execPath, ['--max-old-space-size=512', '--import', 'tsx', child, input, join(dir, 'out.mp4')], { timeout: 120_000, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => (err ? reject(new Error(`the remux process failed: ${err.message} ${stderr.slice(-500)}`)) : resolve(JSON.parse(stdout) as Outcome)));
  });
}

describe('remux memory stays bounded on pathological input', () => {
  it('an fMP4 whose trun declares 4 billion samples: that fragment is skipped and reported, memory flat', async () => {
    const b = Buffer.from(readFileSync(clip('clip-360p.fmp4')));
    const moof = boxes(b).find((x) => x.type === 'moof')!;
    const traf = boxes(b, moof.body, moof.end).find((x) => x.type === 'traf')!;
    const trun = boxes(b, traf.body, traf.end).find((x) => x.type === 'trun')!;
    // Flags: a data offset only (every sample takes the defaults, so no per-sample bytes bound the count); 2^32 - 1 samples.
    b.writeUInt32BE(0x000001, trun.body);
    b.writeUInt32BE(0xffffffff, trun.body + 4);
    const input = join(dir, 'trun.mp4');
    writeFileSync(input, b);
    const r = await remuxInChild(input);
    expect(r.maxRssMb).toBeLessThan(RSS_BOUND_MB);
    expect(r.ok).toBe(true);
    expect(r.skipped![0]).toMatchObject({ offset: moof.start, reason: expect.stringMatching(/^mp4-bad-fragment: .*4294967295 samples/) });
  }, 150_000);

  it('a 120 MB TS whose video PES never ends: its bytes past 16 MiB are skipped and reported, memory flat', async () => {
    const input = join(dir, 'endless.ts');
    const fd = openSync(input, 'w');
    try {
      const pkt = (pid: number, start: boolean, payload: Buffer): Buffer => {
        const p = Buffer.alloc(188, 0xff);
        p[0] = 0x47;
        p[1] = (start ? 0x40 : 0) | (pid >> 8);
        p[2] = pid & 0xff;
        p[3] = 0x10;
        payload.copy(p, 4, 0, 184);
        return p;
      };
      const pat = Buffer.from('0000b00d0001c100000001f0002ab104b2', 'hex');
      const pmt = Buffer.from('0002b0120001c10000e100f0001be100f0002d8b5bb1', 'hex');
      // One PES header (PTS only, length 0: unbounded), then H.264 slice bytes with no start of another PES, ever.
      const pes = Buffer.concat([Buffer.from('000001e0000080800521000100010000000109f0000000016588', 'hex'), Buffer.alloc(184, 0x11)]);
      const body = Buffer.alloc(184, 0x22);
      writeSync(fd, Buffer.concat([pkt(0, true, pat), pkt(0x1000, true, pmt), pkt(0x100, true, pes)]));
      const block = Buffer.concat(Array.from({ length: 5000 }, () => pkt(0x100, false, body)));
      for (let written = 0; written < 120e6; written += block.length) writeSync(fd, block);
    } finally {
      closeSync(fd);
    }
    const r = await remuxInChild(input);
    expect(r.maxRssMb).toBeLessThan(RSS_BOUND_MB);
    // No sample could be made of it: the remux fails cleanly (the job keeps the source), or reports the skipped bytes.
    if (r.ok) expect(r.skipped!.some((s) => s.reason === 'ts-pes-too-large')).toBe(true);
    else expect(r.error).toMatch(/no samples/);
  }, 150_000);
});
