// Reads the samples of fMP4 fragments (moof + mdat): per sample its track, decode/composition time, sync flag and bytes.
import { boxes, child, type Mp4Init, readTfhd } from '../mp4-boxes.js';

export interface Mp4Sample {
  trackId: number;
  /** Decode time in the track's timescale. */
  dts: number;
  /** Composition offset in the track's timescale. */
  cts: number;
  key: boolean;
  /** A view into the fragment bytes. */
  bytes: Uint8Array;
}

const NON_SYNC = 0x00010000;

/**
 * Every sample of every moof in `buf` (a segment), in each traf's order. Samples whose bytes fall outside the
 * buffer are left out (a torn fragment); returns how many were, so callers can count the anomaly.
 */
export function readSamples(buf: Uint8Array, init: Mp4Init | null): { samples: Mp4Sample[]; torn: number } {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const samples: Mp4Sample[] = [];
  let torn = 0;
  for (const moof of boxes(buf).filter((b) => b.type === 'moof')) {
    for (const traf of boxes(buf, moof.body, moof.end).filter((b) => b.type === 'traf')) {
      const tfhd = child(buf, traf, 'tfhd');
      if (!tfhd) continue;
      const { trackId, baseDataOffset, defDuration, defSize, defFlags } = readTfhd(view, tfhd, init);
      const base = baseDataOffset ?? moof.start;
      const tfdt = child(buf, traf, 'tfdt');
      let dts = tfdt ? (buf[tfdt.body] === 1 ? Number(view.getBigUint64(tfdt.body + 4)) : view.getUint32(tfdt.body + 4)) : 0;
      for (const trun of boxes(buf, traf.body, traf.end).filter((b) => b.type === 'trun')) {
        const version = buf[trun.body]!;
        const tf = view.getUint32(trun.body) & 0xffffff;
        const count = view.getUint32(trun.body + 4);
        let q = trun.body + 8;
        let offset = base;
        if (tf & 0x01) { offset = base + view.getInt32(q); q += 4; }
        let firstFlags: number | null = null;
        if (tf & 0x04) { firstFlags = view.getUint32(q); q += 4; }
        for (let i = 0; i < count && q <= trun.end; i++) {
          const duration = tf & 0x100 ? view.getUint32((q += 4) - 4) : defDuration;
          const size = tf & 0x200 ? view.getUint32((q += 4) - 4) : defSize;
          const sflags = tf & 0x400 ? view.getUint32((q += 4) - 4) : i === 0 && firstFlags !== null ? firstFlags : defFlags;
          const cts = tf & 0x800 ? (version === 0 ? view.getUint32((q += 4) - 4) : view.getInt32((q += 4) - 4)) : 0;
          if (offset + size > buf.length) torn++;
          else samples.push({ trackId, dts, cts, key: (sflags & NON_SYNC) === 0, bytes: buf.subarray(offset, offset + size) });
          offset += size;
          dts += duration;
        }
      }
    }
  }
  return { samples, torn };
}
