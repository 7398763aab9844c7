// The samples of one fMP4 fragment, from its moof alone (the mdat is never loaded): place in the file, times, flags.
// The moof passes the recorder's own structural check (hls/box-guard.ts) first: every count against the bytes that hold it.
import { moofProblem } from '../../hls/box-guard.js';
import { boxes, child, readTfhd, type Mp4Init } from '../../hls/mp4-boxes.js';

export interface FragmentSample {
  trackId: number;
  dts: number;
  cto: number;
  flags: number;
  /** Absolute file offset and size of the sample's bytes. */
  offset: number;
  size: number;
}

/** A run of samples that lie back to back in the file (one trun). */
export interface FragmentRun {
  trackId: number;
  offset: number;
  bytes: number;
}

/** Samples one fragment may hold: a live fragment of a few seconds holds a few hundred. */
export const MAX_FRAGMENT_SAMPLES = 1 << 16;

/**
 * Calls `each` for every sample of the moof in `buf` (the moof box alone, at file offset `moofAt`), returns the runs;
 * throws with the box guard's reason when the moof cannot be read validly (nothing was reported then).
 */
export function fragmentSamples(buf: Buffer, moofAt: number, init: Mp4Init | null, mdatBytes: number, each: (s: FragmentSample) => void): FragmentRun[] {
  const moof = boxes(buf).find((b) => b.type === 'moof');
  if (!moof) throw new Error('no moof');
  const problem = moofProblem(buf, moof);
  if (problem) throw new Error(problem);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const runs: FragmentRun[] = [];
  const pending: FragmentSample[] = [];
  for (const traf of boxes(buf, moof.body, moof.end).filter((b) => b.type === 'traf')) {
    const tfhd = child(buf, traf, 'tfhd');
    if (!tfhd) continue;
    const t = readTfhd(view, tfhd, init);
    const base = t.baseDataOffset ?? moofAt;
    const tfdt = child(buf, traf, 'tfdt');
    let dts = tfdt ? (buf[tfdt.body] === 1 ? Number(view.getBigUint64(tfdt.body + 4)) : view.getUint32(tfdt.body + 4)) : 0;
    let dataPos = base;
    for (const trun of boxes(buf, traf.body, traf.end).filter((b) => b.type === 'trun')) {
      const version = buf[trun.body]!;
      const tf = view.getUint32(trun.body) & 0xffffff;
      const count = view.getUint32(trun.body + 4);
      let q = trun.body + 8;
      if (tf & 0x01) { dataPos = base + view.getInt32(q); q += 4; }
      let firstFlags: number | null = null;
      if (tf & 0x04) { firstFlags = view.getUint32(q); q += 4; }
      const run: FragmentRun = { trackId: t.trackId, offset: dataPos, bytes: 0 };
      // Checked before anything is allocated for them: the count against the fragment's bound, the bytes against the mdat.
      if (pending.length + count > MAX_FRAGMENT_SAMPLES) throw new Error(`trun declares ${count} samples, more than a fragment holds`);
      if (!(tf & 0x200) && t.defSize * count > mdatBytes) throw new Error(`trun declares ${count} samples of ${t.defSize} bytes, more than its mdat's ${mdatBytes}`);
      for (let i = 0; i < count; i++) {
        let duration = t.defDuration;
        let size = t.defSize;
        let flags = i === 0 && firstFlags !== null ? firstFlags : t.defFlags;
        let cto = 0;
        if (tf & 0x100) { duration = view.getUint32(q); q += 4; }
        if (tf & 0x200) { size = view.getUint32(q); q += 4; }
        if (tf & 0x400) { flags = view.getUint32(q); q += 4; }
        if (tf & 0x800) { cto = version === 0 ? view.getUint32(q) : view.getInt32(q); q += 4; }
        pending.push({ trackId: t.trackId, dts, cto, flags, offset: dataPos, size });
        dts += duration;
        dataPos += size;
        run.bytes += size;
        if (run.bytes > mdatBytes) throw new Error('the trun\'s samples run past the mdat');
      }
      runs.push(run);
    }
  }
  for (const s of pending) each(s);
  return runs;
}
