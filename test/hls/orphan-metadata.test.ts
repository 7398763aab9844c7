// A recovered fMP4 (real Bilibili init + media segment, then a torn one): cut to whole boxes, mvhd/mehd set to its length.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { finalizeOrphanHls } from '../../src/hls/orphan.js';

const HLS = join(import.meta.dirname, '..', 'fixtures', 'bili-real', 'hls');
const init = readFileSync(join(HLS, 'shadowreplay_fmp4_init_segment_avc_aac_2025-09.m4s'));
const media = readFileSync(join(HLS, 'shadowreplay_fmp4_media_segment_seq826_avc_aac_2025-09.m4s'));

/** mvhd's timescale and duration, and mehd's fragment duration (null without mehd). */
function movieDurations(file: Buffer): { timescale: number; duration: number; mehd: number | null } {
  const mvhd = file.indexOf('mvhd', 0, 'latin1') - 4;
  const v1 = file[mvhd + 8] === 1;
  const ts = mvhd + 12 + (v1 ? 16 : 8);
  const timescale = file.readUInt32BE(ts);
  const duration = v1 ? Number(file.readBigUInt64BE(ts + 4)) : file.readUInt32BE(ts + 4);
  const at = file.indexOf('mehd', 0, 'latin1') - 4;
  const mehd = at < 0 || at > init.length ? null : file[at + 8] === 1 ? Number(file.readBigUInt64BE(at + 12)) : file.readUInt32BE(at + 12);
  return { timescale, duration, mehd };
}

describe('finalizeOrphanHls on fMP4', () => {
  const dir = mkdtempSync(join(tmpdir(), 'liverec-orphan-mp4-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('cuts the torn segment and writes the true duration into mvhd (and mehd where present)', () => {
    const path = join(dir, 'rec.mp4');
    writeFileSync(path, Buffer.concat([init, media, media.subarray(0, 6)])); // a box header cut by the kill
    const before = movieDurations(readFileSync(path));
    const done = finalizeOrphanHls(path)!;
    expect(done.size).toBe(init.length + media.length);
    expect(done.truncatedBytes).toBe(6);
    expect(done.duration).toBeGreaterThan(0);
    expect(done.metadata).toBe(true);
    const after = movieDurations(readFileSync(path));
    expect(after.timescale).toBe(before.timescale);
    expect(after.duration).toBe(Math.round(done.duration * after.timescale));
    if (after.mehd !== null) expect(after.mehd).toBe(after.duration);
    // Only the header changed: the init segment keeps its length and the media bytes are untouched.
    expect(readFileSync(path).subarray(init.length).equals(media)).toBe(true);
  });

  it('is idempotent (a second recovery of the same file changes nothing)', () => {
    const path = join(dir, 'again.mp4');
    copyFileSync(join(dir, 'rec.mp4'), path);
    const first = readFileSync(path);
    finalizeOrphanHls(path);
    expect(readFileSync(path).equals(first)).toBe(true);
  });
});
