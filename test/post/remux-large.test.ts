// The remux's header for media past 4 GiB, without 4 GiB of media: sample places beyond 2^32 must give a 64-bit mdat
// size and co64 chunk offsets that still point at each sample, and the sample tables must come back out of the spool.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Mp4Muxer } from '../../src/post/remux/muxer.js';
import { aacEntry } from '../../src/post/remux/sample-entries.js';
import { Spool } from '../../src/post/remux/spool.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-remux-large-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The body of the first box of `type` found anywhere in buf (a plain search: the header is small and known). */
function findBox(buf: Buffer, type: string): Buffer {
  const at = buf.indexOf(type, 0, 'latin1');
  expect(at, type).toBeGreaterThan(3);
  return buf.subarray(at + 4, at - 4 + buf.readUInt32BE(at - 4));
}

describe('remux header past 4 GiB', () => {
  it('writes a 64-bit mdat size and co64 offsets that land on each sample', () => {
    const spool = new Spool(join(dir, 'x.tables'));
    const header = join(dir, 'header.bin');
    try {
      const mux = new Mp4Muxer(spool);
      const audio = mux.track({ handler: 'soun', timescale: 1000, sampleEntry: aacEntry(Buffer.from([0x11, 0x90])).entry, width: 0, height: 0 });
      // 40,000 samples (the tables spill to the spool file), the last ones past 5 GB in the source.
      const offsets: number[] = [];
      for (let i = 0; i < 40_000; i++) {
        const offset = 100 + i * 130_000 + (i % 7);
        offsets.push(offset);
        mux.fileSample(audio, i * 21, 0, true, offset, 100);
      }
      expect(mux.mediaBytes).toBeGreaterThan(2 ** 32);
      const fd = openSync(header, 'w');
      mux.writeHeader(fd);
      closeSync(fd);
      const buf = readFileSync(header);
      // The mdat's header ends the file: size 1, then the 64-bit size covering the whole region.
      expect(buf.readUInt32BE(buf.length - 16)).toBe(1);
      expect(buf.toString('latin1', buf.length - 12, buf.length - 8)).toBe('mdat');
      expect(Number(buf.readBigUInt64BE(buf.length - 8))).toBe(16 + mux.mediaBytes);
      expect(buf.indexOf('stco', 0, 'latin1')).toBe(-1);
      const co64 = findBox(buf, 'co64');
      expect(co64.readUInt32BE(4)).toBe(40_000);
      // Sample i's bytes start where they lay in the source, moved by the header's length minus the region's start.
      for (const i of [0, 1, 16_383, 16_384, 39_999]) {
        expect(Number(co64.readBigUInt64BE(8 + i * 8)), `sample ${i}`).toBe(buf.length + offsets[i]! - offsets[0]!);
      }
      const stsz = findBox(buf, 'stsz');
      expect(stsz.readUInt32BE(8)).toBe(40_000);
      expect(stsz.readUInt32BE(12 + 39_999 * 4)).toBe(100);
      const stts = findBox(buf, 'stts');
      expect([stts.readUInt32BE(4), stts.readUInt32BE(8), stts.readUInt32BE(12)]).toEqual([1, 40_000, 21]);
    } finally {
      spool.close();
    }
  });
});
