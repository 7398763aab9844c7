// Fragmented MP4 (HLS fMP4 recordings) → samples: the init's sample entries are kept as they are, fragments read one at a
// time; each sample is reported by its place in the file (its bytes are copied as they are).
import { boxes, path, parseInit, type Mp4Init } from '../../hls/mp4-boxes.js';
import { readSamples } from '../../media/fmp4-fragments.js';
import type { FileReader } from './file-reader.js';
import type { SampleSink } from './track.js';

const NON_SYNC = 0x00010000;

function boxHeader(r: FileReader): { type: string; size: number; header: number } | null {
  const h = r.peek(8);
  if (!h) return null;
  const type = h.toString('latin1', 4, 8);
  let size = h.readUInt32BE(0);
  if (size === 1) {
    const l = r.peek(16);
    if (!l) return null;
    return { type, size: Number(l.readBigUInt64BE(8)), header: 16 };
  }
  if (size === 0) size = r.size - r.position;
  return { type, size, header: 8 };
}

export function demuxFmp4(r: FileReader, sink: SampleSink): void {
  let init: Mp4Init | null = null;
  const trackOf = new Map<number, number>();
  const handlerOf = new Map<number, string>();
  for (;;) {
    const h = boxHeader(r);
    if (!h) break;
    if (h.size < h.header) {
      sink.anomaly('mp4-bad-box');
      break;
    }
    if (h.type === 'moov') {
      const buf = r.read(h.size);
      if (!buf) break;
      if (init) {
        sink.anomaly('mp4-second-init');
        continue;
      }
      init = parseInit(buf);
      if (!init) throw new Error('the MP4 init has no track');
      const moov = boxes(buf).find((b) => b.type === 'moov')!;
      for (const trak of boxes(buf, moov.body, moov.end).filter((b) => b.type === 'trak')) {
        const tkhd = boxes(buf, trak.body, trak.end).find((b) => b.type === 'tkhd');
        const stsd = path(buf, trak, 'mdia', 'minf', 'stbl', 'stsd');
        if (!tkhd || !stsd) continue;
        const trackId = buf.readUInt32BE(tkhd.body + (buf[tkhd.body] === 1 ? 20 : 12));
        const t = init.tracks.find((x) => x.trackId === trackId);
        const entry = boxes(buf, stsd.body + 8, stsd.end)[0];
        if (!t || !entry || (t.handler !== 'vide' && t.handler !== 'soun')) continue;
        handlerOf.set(trackId, t.handler);
        trackOf.set(trackId, sink.track({
          handler: t.handler, timescale: t.timescale, sampleEntry: Buffer.from(buf.subarray(entry.start, entry.end)), width: t.width, height: t.height,
        }));
      }
      continue;
    }
    if (h.type === 'moof') {
      // One fragment in memory at a time (a second or two of stream): the moof and the mdat after it.
      const fragAt = r.position;
      const moof = r.read(h.size);
      if (!moof) {
        sink.anomaly('mp4-truncated-fragment');
        break;
      }
      const moofCopy = Buffer.from(moof);
      const m = boxHeader(r);
      if (!m || m.type !== 'mdat') {
        sink.anomaly('mp4-moof-without-mdat');
        continue;
      }
      const mdat = r.read(m.size);
      if (!mdat) {
        sink.anomaly('mp4-truncated-fragment');
        break;
      }
      const frag = Buffer.concat([moofCopy, mdat]);
      for (const s of readSamples(frag, init)) {
        const index = trackOf.get(s.trackId);
        if (index === undefined) continue;
        const at = s.data.byteOffset - frag.byteOffset;
        if (s.data.length === 0 || at < moofCopy.length || at + s.data.length > frag.length) {
          sink.anomaly('mp4-sample-outside-mdat');
          continue;
        }
        const sync = handlerOf.get(s.trackId) === 'soun' || (s.flags & NON_SYNC) === 0;
        sink.fileSample(index, s.dts, s.cto, sync, fragAt + at, s.data.length);
      }
      continue;
    }
    r.skip(h.size);
  }
  if (!init) throw new Error('no MP4 init (moov) in the file');
}
