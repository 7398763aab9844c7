// Two-pass MP4 muxer: pass 1 reads the input for the sample tables only, the moov is written first (faststart),
// pass 2 reads the input again and appends the media; memory holds one read window and one write buffer.
import { writeSync } from 'node:fs';
import { box, boxList, fullBox, fullBoxList, listBytes, MATRIX, u32, u32a, u64, type BoxList } from './boxes.js';
import { SampleColumns, type SampleSink, type TrackSetup } from './track.js';

const BUFFER_BYTES = 4 * 1024 * 1024;
const MOVIE_TIMESCALE = 1000;

interface Track {
  setup: TrackSetup;
  s: SampleColumns;
  /** Chunk offsets into the mdat's data and the sample count of each chunk. */
  chunkOffsets: number[];
  chunkCounts: number[];
}

export interface MuxedTrack {
  handler: 'vide' | 'soun';
  samples: number;
  /** Seconds from the first decode time to the end of the last sample. */
  duration: number;
}

/**
 * Pass 1 of the remux: records every sample's size, times and flags (never its bytes), so the moov can be built
 * and written first; pass 2 (DataWriter) reads the input again and writes the bytes in the same order.
 */
export class Mp4Muxer implements SampleSink {
  private readonly tracks: Track[] = [];
  /** Bytes of mdat data laid out so far. */
  private dataBytes = 0;
  private lastTrack = -1;
  anomalies: Record<string, number> = {};

  track(setup: TrackSetup): number {
    this.tracks.push({ setup, s: new SampleColumns(), chunkOffsets: [], chunkCounts: [] });
    return this.tracks.length - 1;
  }

  anomaly(what: string): void {
    this.anomalies[what] = (this.anomalies[what] ?? 0) + 1;
  }

  sample(index: number, dts: number, cto: number, sync: boolean, data: Uint8Array): void {
    const t = this.tracks[index]!;
    const prev = t.s.count ? t.s.dts[t.s.count - 1]! : -Infinity;
    if (dts < prev) {
      // A timestamp going back (a reconnect inside the file): keep the sample, at the previous time.
      this.anomaly('backwards-timestamp');
      dts = prev;
    }
    t.s.push(data.length, dts, cto, sync);
    if (this.lastTrack !== index) {
      t.chunkOffsets.push(this.dataBytes);
      t.chunkCounts.push(0);
      this.lastTrack = index;
    }
    t.chunkCounts[t.chunkCounts.length - 1]!++;
    this.dataBytes += data.length;
  }

  /** Bytes the mdat will hold: what pass 2 must write. */
  get mediaBytes(): number {
    return this.dataBytes;
  }

  /** ftyp + moov + the mdat's header: everything before the media bytes, as buffers to write in order. */
  header(): BoxList {
    const tracks = this.tracks.filter((t) => t.s.count > 0);
    if (tracks.length === 0) throw new Error('no samples in the input');
    const ftyp = box('ftyp', Buffer.from('isom'), u32(0x200), Buffer.from('isomiso2mp41'));
    const large = this.dataBytes + 8 > 0xffffffff;
    const mdatHead = large ? Buffer.concat([u32(1), Buffer.from('mdat'), u64(this.dataBytes + 16)]) : Buffer.concat([u32(this.dataBytes + 8), Buffer.from('mdat')]);
    // Offsets depend on the moov's size, which depends on stco vs co64: build once to measure, then for real.
    const size = listBytes(this.moov(tracks, 0, false));
    const co64 = ftyp.length + size + mdatHead.length + this.dataBytes > 0xffffffff;
    // stco → co64 changes the size; the offsets are then taken from the moov as it will be.
    const moovSize = co64 ? listBytes(this.moov(tracks, 0, true)) : size;
    return [ftyp, ...this.moov(tracks, ftyp.length + moovSize + mdatHead.length, co64), mdatHead];
  }

  /** Indexes of the tracks with samples (pass 2 writes only theirs, as the moov lists only them). */
  keptTracks(): Set<number> {
    return new Set(this.tracks.flatMap((t, i) => (t.s.count > 0 ? [i] : [])));
  }

  /** What each track holds (empty tracks left out, as in the moov). */
  summary(): MuxedTrack[] {
    return this.tracks.filter((t) => t.s.count > 0).map((t) => ({ handler: t.setup.handler, samples: t.s.count, duration: trackDuration(t) / t.setup.timescale }));
  }

  private moov(tracks: Track[], dataStart: number, co64: boolean): BoxList {
    const firstSec = Math.min(...tracks.map((t) => t.s.dts[0]! / t.setup.timescale));
    const movieDur = Math.max(...tracks.map((t) => (t.s.dts[0]! / t.setup.timescale - firstSec) + trackDuration(t) / t.setup.timescale));
    const mvhd = fullBox('mvhd', 0, 0, u32(0, 0, MOVIE_TIMESCALE, Math.round(movieDur * MOVIE_TIMESCALE), 0x10000), Buffer.from([1, 0, 0, 0]),
      Buffer.alloc(8), MATRIX, Buffer.alloc(24), u32(tracks.length + 1));
    return boxList('moov', mvhd, ...tracks.map((t, i) => trak(t, i + 1, dataStart, co64, t.s.dts[0]! / t.setup.timescale - firstSec)));
  }
}

/** Pass 2: the same demux again, each sample's bytes appended to the output through one reused buffer. */
export class DataWriter implements SampleSink {
  private readonly buf = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  private tracks = 0;
  written = 0;

  constructor(private readonly fd: number, private readonly keep: (track: number) => boolean) {}

  track(): number {
    return this.tracks++;
  }

  anomaly(): void {
    // Counted in pass 1.
  }

  sample(index: number, _dts: number, _cto: number, _sync: boolean, data: Uint8Array): void {
    if (!this.keep(index)) return;
    this.written += data.length;
    if (data.length > BUFFER_BYTES - this.used) this.flush();
    if (data.length > BUFFER_BYTES) {
      writeAll(this.fd, data);
      return;
    }
    this.buf.set(data, this.used);
    this.used += data.length;
  }

  flush(): void {
    if (this.used) writeAll(this.fd, this.buf.subarray(0, this.used));
    this.used = 0;
  }
}

export function writeAll(fd: number, data: Uint8Array): void {
  for (let done = 0; done < data.length;) done += writeSync(fd, data, done);
}

/** The last sample lasts as long as the one before it (a single sample: one tick). */
function lastDelta(s: SampleColumns): number {
  return s.count > 1 ? s.dts[s.count - 1]! - s.dts[s.count - 2]! : 1;
}

function trackDuration(t: Track): number {
  const s = t.s;
  return s.dts[s.count - 1]! - s.dts[0]! + lastDelta(s);
}

/** Run-length pairs (count, value) of a sequence. */
function runs(n: number, value: (i: number) => number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = value(i);
    if (out.length && out[out.length - 1] === v) out[out.length - 2]!++;
    else out.push(1, v);
  }
  return out;
}

function trak(t: Track, id: number, dataStart: number, co64: boolean, startSec: number): BoxList {
  const s = t.s;
  const video = t.setup.handler === 'vide';
  const ts = t.setup.timescale;
  const dur = trackDuration(t);
  const movieDur = Math.round((dur / ts) * MOVIE_TIMESCALE);
  const tkhd = fullBox('tkhd', 0, 3, u32(0, 0, id, 0, movieDur), Buffer.alloc(8), Buffer.from([0, 0, 0, video ? 0 : 1, video ? 0 : 1, 0, 0, 0]),
    MATRIX, u32(video ? t.setup.width * 0x10000 : 0, video ? t.setup.height * 0x10000 : 0));
  const mdhd = fullBox('mdhd', 0, 0, u32(0, 0, ts, Math.round(dur)), Buffer.from([0x55, 0xc4, 0, 0]));
  const hdlr = fullBox('hdlr', 0, 0, u32(0), Buffer.from(t.setup.handler), Buffer.alloc(12), Buffer.from(video ? 'VideoHandler\0' : 'SoundHandler\0'));
  const sttsRuns = runs(s.count, (i) => (i + 1 < s.count ? s.dts[i + 1]! - s.dts[i]! : lastDelta(s)));
  const stbl: (Buffer | BoxList)[] = [
    fullBox('stsd', 0, 0, u32(1), t.setup.sampleEntry),
    fullBoxList('stts', 0, 0, u32(sttsRuns.length / 2), u32a(sttsRuns)),
  ];
  if (s.cto.subarray(0, s.count).some((c) => c !== 0)) {
    const cttsRuns = runs(s.count, (i) => s.cto[i]!);
    stbl.push(fullBoxList('ctts', 1, 0, u32(cttsRuns.length / 2), u32a(cttsRuns)));
  }
  let syncCount = 0;
  for (let i = 0; i < s.count; i++) syncCount += s.sync[i]!;
  if (video && syncCount < s.count) {
    const sync: number[] = [];
    for (let i = 0; i < s.count; i++) if (s.sync[i]) sync.push(i + 1);
    stbl.push(fullBoxList('stss', 0, 0, u32(sync.length), u32a(sync)));
  }
  const stsc: number[] = [];
  t.chunkCounts.forEach((n, i) => {
    if (stsc.length === 0 || stsc[stsc.length - 2] !== n) stsc.push(i + 1, n, 1);
  });
  stbl.push(fullBoxList('stsc', 0, 0, u32(stsc.length / 3), u32a(stsc)));
  stbl.push(fullBoxList('stsz', 0, 0, u32(0, s.count), u32a(s.sizes.subarray(0, s.count))));
  stbl.push(co64
    ? fullBoxList('co64', 0, 0, u32(t.chunkOffsets.length), Buffer.concat(t.chunkOffsets.map((o) => u64(o + dataStart))))
    : fullBoxList('stco', 0, 0, u32(t.chunkOffsets.length), u32a(t.chunkOffsets.map((o) => o + dataStart))));
  const minf = boxList('minf', video ? fullBox('vmhd', 0, 1, Buffer.alloc(8)) : fullBox('smhd', 0, 0, Buffer.alloc(4)),
    box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1))), boxList('stbl', ...stbl));
  const parts: (Buffer | BoxList)[] = [tkhd];
  if (startSec > 0.0005) {
    // A track that starts after the other: an empty edit keeps the two in sync, as in the source.
    parts.push(box('edts', fullBox('elst', 0, 0, u32(2, Math.round(startSec * MOVIE_TIMESCALE), 0xffffffff, 0x10000, movieDur, 0, 0x10000))));
  }
  return boxList('trak', ...parts, boxList('mdia', mdhd, hdlr, minf));
}
