// Streaming MP4 muxer: sample bytes go to a temp mdat file as they come; at the end the moov is built from the
// sample columns and written before a copy of the mdat (faststart), so memory never holds more than one buffer.
import { closeSync, fsyncSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { box, fullBox, MATRIX, u32, u32a, u64 } from './boxes.js';
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

export class Mp4Muxer implements SampleSink {
  private readonly tracks: Track[] = [];
  private readonly fd: number;
  private readonly buf = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  /** Bytes of mdat data so far (flushed or buffered). */
  private dataBytes = 0;
  private lastTrack = -1;
  anomalies: Record<string, number> = {};

  constructor(private readonly tempPath: string) {
    this.fd = openSync(tempPath, 'w');
  }

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
    this.write(data);
  }

  private write(data: Uint8Array): void {
    this.dataBytes += data.length;
    if (data.length > BUFFER_BYTES - this.used) this.flush();
    if (data.length > BUFFER_BYTES) {
      writeAll(this.fd, data);
      return;
    }
    this.buf.set(data, this.used);
    this.used += data.length;
  }

  private flush(): void {
    if (this.used) writeAll(this.fd, this.buf.subarray(0, this.used));
    this.used = 0;
  }

  /** Writes ftyp + moov + mdat to `output` and removes the temp file; returns what each track holds. */
  finish(output: string): MuxedTrack[] {
    this.flush();
    closeSync(this.fd);
    const tracks = this.tracks.filter((t) => t.s.count > 0);
    if (tracks.length === 0) {
      rmSync(this.tempPath, { force: true });
      throw new Error('no samples in the input');
    }
    const ftyp = box('ftyp', Buffer.from('isom'), u32(0x200), Buffer.from('isomiso2mp41'));
    const large = this.dataBytes + 8 > 0xffffffff;
    const mdatHead = large ? Buffer.concat([u32(1), Buffer.from('mdat'), u64(this.dataBytes + 16)]) : Buffer.concat([u32(this.dataBytes + 8), Buffer.from('mdat')]);
    // Offsets depend on the moov's size, which depends on stco vs co64: build once to measure, then for real.
    let moov = this.moov(tracks, 0, false);
    const co64 = ftyp.length + moov.length + mdatHead.length + this.dataBytes > 0xffffffff;
    moov = this.moov(tracks, ftyp.length + moov.length + mdatHead.length, co64);
    const out = openSync(output, 'w');
    try {
      writeAll(out, Buffer.concat([ftyp, moov, mdatHead]));
      const src = openSync(this.tempPath, 'r');
      try {
        for (let pos = 0; pos < this.dataBytes;) {
          const n = readSync(src, this.buf, 0, Math.min(BUFFER_BYTES, this.dataBytes - pos), pos);
          if (n <= 0) throw new Error('the temp mdat file is shorter than written');
          writeAll(out, this.buf.subarray(0, n));
          pos += n;
        }
      } finally {
        closeSync(src);
      }
      fsyncSync(out);
    } finally {
      closeSync(out);
      rmSync(this.tempPath, { force: true });
    }
    return tracks.map((t) => ({ handler: t.setup.handler, samples: t.s.count, duration: trackDuration(t) / t.setup.timescale }));
  }

  private moov(tracks: Track[], dataStart: number, co64: boolean): Buffer {
    const firstSec = Math.min(...tracks.map((t) => t.s.dts[0]! / t.setup.timescale));
    const movieDur = Math.max(...tracks.map((t) => (t.s.dts[0]! / t.setup.timescale - firstSec) + trackDuration(t) / t.setup.timescale));
    const mvhd = fullBox('mvhd', 0, 0, u32(0, 0, MOVIE_TIMESCALE, Math.round(movieDur * MOVIE_TIMESCALE), 0x10000), Buffer.from([1, 0, 0, 0]),
      Buffer.alloc(8), MATRIX, Buffer.alloc(24), u32(tracks.length + 1));
    return box('moov', mvhd, ...tracks.map((t, i) => trak(t, i + 1, dataStart, co64, t.s.dts[0]! / t.setup.timescale - firstSec)));
  }
}

function writeAll(fd: number, data: Uint8Array): void {
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

function trak(t: Track, id: number, dataStart: number, co64: boolean, startSec: number): Buffer {
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
  const stbl: Buffer[] = [
    fullBox('stsd', 0, 0, u32(1), t.setup.sampleEntry),
    fullBox('stts', 0, 0, u32(sttsRuns.length / 2), u32a(sttsRuns)),
  ];
  if (s.cto.subarray(0, s.count).some((c) => c !== 0)) {
    const cttsRuns = runs(s.count, (i) => s.cto[i]!);
    stbl.push(fullBox('ctts', 1, 0, u32(cttsRuns.length / 2), u32a(cttsRuns)));
  }
  let syncCount = 0;
  for (let i = 0; i < s.count; i++) syncCount += s.sync[i]!;
  if (video && syncCount < s.count) {
    const sync: number[] = [];
    for (let i = 0; i < s.count; i++) if (s.sync[i]) sync.push(i + 1);
    stbl.push(fullBox('stss', 0, 0, u32(sync.length), u32a(sync)));
  }
  const stsc: number[] = [];
  t.chunkCounts.forEach((n, i) => {
    if (stsc.length === 0 || stsc[stsc.length - 2] !== n) stsc.push(i + 1, n, 1);
  });
  stbl.push(fullBox('stsc', 0, 0, u32(stsc.length / 3), u32a(stsc)));
  stbl.push(fullBox('stsz', 0, 0, u32(0, s.count), u32a(s.sizes.subarray(0, s.count))));
  stbl.push(co64
    ? fullBox('co64', 0, 0, u32(t.chunkOffsets.length), Buffer.concat(t.chunkOffsets.map((o) => u64(o + dataStart))))
    : fullBox('stco', 0, 0, u32(t.chunkOffsets.length), u32a(t.chunkOffsets.map((o) => o + dataStart))));
  const minf = box('minf', video ? fullBox('vmhd', 0, 1, Buffer.alloc(8)) : fullBox('smhd', 0, 0, Buffer.alloc(4)),
    box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1))), box('stbl', ...stbl));
  const parts = [tkhd];
  if (startSec > 0.0005) {
    // A track that starts after the other: an empty edit keeps the two in sync, as in the source.
    parts.push(box('edts', fullBox('elst', 0, 0, u32(2, Math.round(startSec * MOVIE_TIMESCALE), 0xffffffff, 0x10000, movieDur, 0, 0x10000))));
  }
  return box('trak', ...parts, box('mdia', mdhd, hdlr, minf));
}
