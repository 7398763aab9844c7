// Fragmented MP4 (HLS fMP4 recordings) → samples: the init's sample entries are kept as they are, fragments read one at a
// time (the moof only; the mdat is never loaded); each sample is reported by its place in the file. Every byte is
// booked in the ledger; after a box that is not one (junk spliced in), the walk resumes at the next fragment.
import { boxes, path, parseInit, type Mp4Init } from '../../hls/mp4-boxes.js';
import type { FileReader } from './file-reader.js';
import { fragmentSamples, type FragmentSample } from './fragment-samples.js';
import type { ByteLedger } from './ledger.js';
import type { SampleSink } from './track.js';

const NON_SYNC = 0x00010000;
/** Top-level boxes an HLS fMP4 recording holds: structure (samples live in mdat; moov and moof describe them). */
const TOP = new Set(['ftyp', 'styp', 'moov', 'moof', 'mdat', 'free', 'skip', 'sidx', 'prft', 'mfra']);
/** Box sizes read into memory: an init or a fragment header of a live stream is a few KB. */
export const MAX_MOOV = 16 << 20;
export const MAX_MOOF = 16 << 20;

interface Head { type: string; size: number; header: number }

function boxHeader(r: FileReader): Head | null {
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

/** liverec's provenance box (hls/mp4-source-box.ts): understood, as FLV's onMetaData is. */
const SOURCE_UUID = Buffer.from('liverec-source-1', 'latin1');
const printable = (t: string): boolean => /^[\x20-\x7e]{4}$/.test(t);

/**
 * A box the walk can take at the reader's position: it fits in the file (and in memory when read), and its type is
 * one of TOP or at least four printable characters (an unknown box, skipped whole, not junk to resynchronise past).
 */
function validBox(r: FileReader): Head | null {
  const h = boxHeader(r);
  if (!h || !printable(h.type) || h.size < h.header || r.position + h.size > r.size) return null;
  if ((h.type === 'moov' && h.size > MAX_MOOV) || (h.type === 'moof' && h.size > MAX_MOOF)) return null;
  return h;
}

/** The offset of the next valid moof/styp/moov at or after `from` (the fragment after junk), or -1. */
function resync(r: FileReader, from: number): number {
  r.seek(from);
  while (r.ensure(8)) {
    const b = r.bytes;
    const p = r.at + 4;
    // 'moof', 'styp', 'moov', 'sidx': the boxes a fragment or an init starts with.
    const m = b[p] === 0x6d && b[p + 1] === 0x6f && (b[p + 2] === 0x6f && (b[p + 3] === 0x66 || b[p + 3] === 0x76));
    const s = b[p] === 0x73 && ((b[p + 1] === 0x74 && b[p + 2] === 0x79 && b[p + 3] === 0x70) || (b[p + 1] === 0x69 && b[p + 2] === 0x64 && b[p + 3] === 0x78));
    const at = r.position;
    if ((m || s) && validBox(r)) return at;
    r.seek(at + 1);
  }
  return -1;
}

export function demuxFmp4(r: FileReader, sink: SampleSink, ledger: ByteLedger): void {
  let init: Mp4Init | null = null;
  const trackOf = new Map<number, number>();
  const handlerOf = new Map<number, string>();
  const entryOf = new Map<number, Buffer>();
  const skip = (at: number, bytes: number, reason: string): void => {
    sink.anomaly(reason);
    ledger.skip(at, bytes, reason);
  };
  while (r.ensure(1)) {
    const at = r.position;
    const h = validBox(r);
    if (!h) {
      const next = resync(r, at + 1);
      skip(at, (next < 0 ? r.size : next) - at, next < 0 ? 'mp4-truncated-box' : 'mp4-lost-sync');
      if (next < 0) break;
      r.seek(next);
      continue;
    }
    if (h.type === 'moov') {
      const buf = Buffer.from(r.read(h.size)!);
      const next = parseInit(buf);
      if (!next) {
        skip(at, h.size, 'mp4-bad-init');
        continue;
      }
      ledger.structure(h.size);
      if (init) sink.anomaly('mp4-second-init');
      else init = next;
      const moov = boxes(buf).find((b) => b.type === 'moov')!;
      for (const trak of boxes(buf, moov.body, moov.end).filter((b) => b.type === 'trak')) {
        const tkhd = boxes(buf, trak.body, trak.end).find((b) => b.type === 'tkhd');
        const stsd = path(buf, trak, 'mdia', 'minf', 'stbl', 'stsd');
        if (!tkhd || !stsd) continue;
        const trackId = buf.readUInt32BE(tkhd.body + (buf[tkhd.body] === 1 ? 20 : 12));
        const t = next.tracks.find((x) => x.trackId === trackId);
        const entry = boxes(buf, stsd.body + 8, stsd.end)[0];
        if (!t || !entry || (t.handler !== 'vide' && t.handler !== 'soun')) continue;
        const sampleEntry = Buffer.from(buf.subarray(entry.start, entry.end));
        const known = trackOf.get(trackId);
        if (known === undefined) {
          handlerOf.set(trackId, t.handler);
          trackOf.set(trackId, sink.track({ handler: t.handler, timescale: t.timescale, sampleEntry, width: t.width, height: t.height }));
        } else if (!entryOf.get(trackId)!.equals(sampleEntry)) {
          // A new init with a different codec setup: later samples are described by it (a second sample description).
          sink.anomaly('mp4-init-changed');
          sink.description(known, sampleEntry);
        }
        entryOf.set(trackId, sampleEntry);
      }
      continue;
    }
    if (h.type === 'moof') {
      const moof = Buffer.from(r.read(h.size)!);
      const m = validBox(r);
      if (!m || m.type !== 'mdat') {
        skip(at, h.size, 'mp4-moof-without-mdat');
        continue;
      }
      const mdatAt = r.position;
      const body = mdatAt + m.header;
      const end = mdatAt + m.size;
      r.seek(end);
      let runs;
      const samples: FragmentSample[] = [];
      try {
        runs = fragmentSamples(moof, at, init, end - body, (s) => void samples.push(s));
      } catch (err) {
        skip(at, end - at, `mp4-bad-fragment: ${(err as Error).message}`);
        continue;
      }
      // Every sample must lie inside this fragment's mdat, of a track the init declared.
      if (!init || runs.some((x) => x.bytes > 0 && (x.offset < body || x.offset + x.bytes > end))) {
        skip(at, end - at, init ? 'mp4-sample-outside-mdat' : 'mp4-fragment-before-init');
        continue;
      }
      ledger.structure(h.size + m.header);
      for (const s of samples) {
        const index = trackOf.get(s.trackId);
        if (index === undefined || s.size === 0) continue;
        const sync = handlerOf.get(s.trackId) === 'soun' || (s.flags & NON_SYNC) === 0;
        sink.fileSample(index, s.dts, s.cto, sync, s.offset, s.size);
      }
      // The mdat's bytes: those of the runs of read tracks are samples; the rest (another track's, or none's) skipped.
      const covered = runs.filter((x) => x.bytes > 0).sort((a, b) => a.offset - b.offset);
      let pos = body;
      for (const x of covered) {
        const from = Math.max(pos, x.offset);
        if (x.offset > pos) skip(pos, x.offset - pos, 'mp4-unreferenced-mdat-bytes');
        const to = x.offset + x.bytes;
        if (to > from) {
          if (trackOf.has(x.trackId)) ledger.sample(to - from);
          else skip(from, to - from, 'mp4-unread-track');
        }
        pos = Math.max(pos, to);
      }
      if (end > pos) skip(pos, end - pos, 'mp4-unreferenced-mdat-bytes');
      continue;
    }
    if (h.type === 'mdat') skip(at, h.size, 'mp4-mdat-without-moof');
    else if (TOP.has(h.type)) ledger.structure(h.size);
    else if (h.type === 'uuid' && h.size >= 24 && r.readAt(at + 8, 16).equals(SOURCE_UUID)) ledger.structure(h.size);
    else skip(at, h.size, `mp4-unread-box: ${h.type}`);
    r.seek(at + h.size);
  }
  if (!init) throw new Error('no MP4 init (moov) in the file');
}
