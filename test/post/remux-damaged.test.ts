// Issue 46, break 1: PostRemuxToMp4=mp4-delete-source on the five damaged recordings. A source is deleted (or an fMP4
// replaced in place) only when the remux copied every sample and the independent reader agrees, checked here against
// ffprobe -count_packets on the undamaged parts; otherwise the source stays byte for byte, the MP4 is kept as
// x.partial.mp4, and the job ends done-with-warnings with the skipped ranges in the API and in PostProcessed.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jobDto } from '../../src/api/jobs.js';
import { ffmpegBin } from '../../src/media/ffmpeg-bin.js';
import * as damaged from './damaged-media.js';
import { ffprobe } from './media.js';
import { fileClosed, removeDir, startQueue, tempWorkDir } from './queue-fixture.js';

const scratch = mkdtempSync(join(tmpdir(), 'liverec-damaged-'));
const dirs: string[] = [scratch];
afterAll(() => dirs.forEach(removeDir));

/** Packets per stream kind as ffprobe counts them (a full read of the file). */
function packets(file: string): Record<string, number> {
  return Object.fromEntries(ffprobe(file).streams.map((s) => [s.codec_type, Number(s.nb_read_packets)]));
}

/** Runs the service's post queue with mp4-delete-source on `make`'s file; returns the remux job as the event and API tell it. */
async function remuxDeleting(name: string, make: (out: string) => unknown) {
  const workDir = tempWorkDir();
  dirs.push(workDir);
  const rel = `1001-streamer/${name}`;
  const source = join(workDir, rel);
  const info = make(source);
  const original = join(scratch, `${name}.original`);
  copyFileSync(source, original);
  // One attempt: the outcome of a remux, not of the retry policy.
  const fx = startQueue(workDir, { PostRemuxToMp4: 'mp4-delete-source' }, { maxAttempts: 1, delayMs: () => 0 });
  try {
    const done = fx.processed();
    fx.bus.emit({ EventType: 'FileClosed', EventTimestamp: '', EventData: fileClosed(rel) });
    const event = await done;
    const job = fx.queue.list().find((j) => j.kind === 'remux')!;
    return { workDir, source, original, info, event: event.EventData, remux: event.EventData.Jobs.find((j) => j.Kind === 'remux')!, api: jobDto(job, workDir) };
  } finally {
    await fx.queue.close();
  }
}

/** The source untouched, the MP4 only as x.partial.mp4, the job done-with-warnings everywhere it is reported. */
function expectKept(r: Awaited<ReturnType<typeof remuxDeleting>>, base: string): void {
  expect(r.remux.State).toBe('done-with-warnings');
  expect(r.api.state).toBe('done-with-warnings');
  expect(r.event.Succeeded).toBe(false);
  expect(r.event.OutputPath).toBe(r.event.RelativePath);
  expect(existsSync(r.source)).toBe(true);
  expect(readFileSync(r.source).equals(readFileSync(r.original))).toBe(true);
  expect(r.remux.Output).toBe(`1001-streamer/${base}.partial.mp4`);
  expect(existsSync(join(r.workDir, '1001-streamer', `${base}.mp4`)) && !r.source.endsWith('.mp4')).toBe(false);
  expect(r.remux.Error).toMatch(/the source is kept/);
}

describe('remux of damaged recordings with mp4-delete-source (issue 46)', () => {
  it('an FLV with a stray byte mid-file: kept, the byte reported at its offset, every sample in the partial MP4', async () => {
    const r = await remuxDeleting('stray.flv', (out) => damaged.strayByte(join(scratch, 'a.flv'), out));
    expectKept(r, 'stray');
    const at = (r.info as { at: number }).at;
    expect(r.remux.Skipped).toEqual([{ offset: at, bytes: 1, reason: 'flv-bad-tag' }]);
    expect(r.api.skipped).toEqual(r.remux.Skipped);
    // Nothing after the byte was lost: the partial MP4 holds what ffprobe reads in the undamaged recording.
    expect(packets(join(r.workDir, r.remux.Output!))).toEqual(packets(join(scratch, 'a.flv')));
  });

  it('an FLV with a second FLV header mid-file (a CDN restart): every sample copied, both readers agree, source deleted', async () => {
    const r = await remuxDeleting('restart.flv', (out) => damaged.secondHeader(join(scratch, 'b.flv'), out));
    const mp4 = join(r.workDir, r.remux.Output!);
    // ffprobe stops at the second header, so each half is counted on its own: the MP4 holds both.
    const half = packets(join(scratch, 'b.flv'));
    expect(packets(mp4)).toEqual({ video: 2 * half.video!, audio: 2 * half.audio! });
    expect(Number(ffprobe(mp4).format.duration)).toBeGreaterThan(30);
    expect(r.remux.State).toBe('done');
    expect(r.remux.Skipped).toBeNull();
    expect(existsSync(r.source)).toBe(false);
  });

  it('an FLV tag whose declared size swallows the rest: kept, that tag reported, the rest copied', async () => {
    const r = await remuxDeleting('swallow.flv', (out) => damaged.swallowingTag(join(scratch, 'c.flv'), out));
    expectKept(r, 'swallow');
    const { at, bytes } = r.info as { at: number; bytes: number };
    expect(r.remux.Skipped).toEqual([{ offset: at, bytes, reason: 'flv-bad-tag' }]);
    const whole = packets(join(scratch, 'c.flv'));
    expect(packets(join(r.workDir, r.remux.Output!))).toEqual({ video: whole.video! - 1, audio: whole.audio });
  });

  it('an FLV whose video sequence header changes mid-file: two sample descriptions, decodes clean, source deleted', async () => {
    const r = await remuxDeleting('change.flv', (out) => damaged.headerChange(join(scratch, 'd.flv'), out));
    expect(r.remux.State).toBe('done');
    expect(existsSync(r.source)).toBe(false);
    const mp4 = join(r.workDir, r.remux.Output!);
    expect(packets(mp4)).toEqual(packets(r.original));
    const stsd = readFileSync(mp4).indexOf('stsd', 0, 'latin1');
    expect(readFileSync(mp4).readUInt32BE(stsd + 8)).toBe(2);
    // The 480p half decodes with its own parameter sets: no decode errors, as in the source.
    const decode = (f: string): string => spawnSync(ffmpegBin(), ['-v', 'error', '-i', f, '-f', 'null', '-'], { encoding: 'utf8' }).stderr.trim();
    expect(decode(mp4)).toBe(decode(r.original));
  });

  it('a TS whose video PES never restarts (payload_unit_start set once): kept; the readers disagree; the partial MP4 has every frame', async () => {
    const clean = join(scratch, 'clean.ts');
    const r = await remuxDeleting('nopusi.ts', (out) => damaged.tsWithoutUnitStarts(join(scratch, 'e.flv'), clean, out));
    expectKept(r, 'nopusi');
    expect(r.remux.Error).toMatch(/independent reader counts 1 video samples/);
    // This ffprobe build mis-reads TS: ffmpeg copies the undamaged TS to MP4, and ffprobe counts that.
    const ref = join(scratch, 'clean-ref.mp4');
    execFileSync(ffmpegBin(), ['-v', 'error', '-y', '-i', clean, '-c', 'copy', ref]);
    expect(packets(join(r.workDir, r.remux.Output!))).toEqual(packets(ref));
  });

  it('an fMP4 with a junk box mid-file: not rewritten in place; the junk reported; every fragment after it copied', async () => {
    const clean = join(scratch, 'clean.mp4');
    const r = await remuxDeleting('junk.mp4', (out) => damaged.fmp4WithJunk(join(scratch, 'f.flv'), clean, out));
    expectKept(r, 'junk');
    const { at, bytes } = r.info as { at: number; bytes: number };
    expect(r.remux.Skipped).toEqual([{ offset: at, bytes, reason: 'mp4-lost-sync' }]);
    expect(packets(join(r.workDir, r.remux.Output!))).toEqual(packets(clean));
  });
});
