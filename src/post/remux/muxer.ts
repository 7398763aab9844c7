// Pass 1 of the remux: every sample's size, times and place go into spooled tables (never its bytes), so the moov
// can be written first (faststart) with memory that stays flat however long the recording is.
import { box, boxList, fullBox, listBytes, MATRIX, u32, u64, type BoxList } from './boxes.js';
import { TrackTables } from './sample-tables.js';
import type { Spool } from './spool.js';
import type { SampleSink, TrackSetup } from './track.js';
import { MOVIE_TIMESCALE, trak } from './trak.js';
import { writeAll } from './write-all.js';

interface Track {
  setup: TrackSetup;
  /** Sample descriptions, the setup's first. */
  entries: Buffer[];
  t: TrackTables;
}

export interface MuxedTrack {
  handler: 'vide' | 'soun';
  samples: number;
  /** Seconds from the first decode time to the end of the last sample. */
  duration: number;
  /** Sample descriptions (more than one after a sequence-header change). */
  descriptions: number;
  /** Where the first samples of the first and the last chunk lie in the input (verbatim samples only; else empty). */
  probes: { at: number; size: number }[];
}

export class Mp4Muxer implements SampleSink {
  private readonly tracks: Track[] = [];
  /** How the demuxer reports samples: their place in the input (`file`) or bytes it built (`built`). */
  private mode: 'file' | 'built' | null = null;
  /** built: bytes of mdat laid out so far. */
  private dataBytes = 0;
  /** file: the input's bytes that hold every sample, copied whole into the mdat. */
  regionStart = Infinity;
  regionEnd = 0;
  private lastTrack = -1;
  private lastEnd = -1;
  anomalies: Record<string, number> = {};

  constructor(private readonly spool: Spool) {}

  track(setup: TrackSetup): number {
    this.tracks.push({ setup, entries: [setup.sampleEntry], t: new TrackTables(this.spool, setup.handler === 'vide') });
    return this.tracks.length - 1;
  }

  description(index: number, sampleEntry: Buffer): void {
    const track = this.tracks[index]!;
    let at = track.entries.findIndex((e) => e.equals(sampleEntry));
    if (at < 0) at = track.entries.push(Buffer.from(sampleEntry)) - 1;
    track.t.description = at + 1;
  }

  anomaly(what: string): void {
    this.anomalies[what] = (this.anomalies[what] ?? 0) + 1;
  }

  sample(index: number, dts: number, cto: number, sync: boolean, data: Uint8Array): void {
    this.use('built');
    const t = this.tracks[index]!.t;
    t.add(this.forward(t, dts), cto, sync, data.length, this.lastTrack !== index, this.dataBytes);
    this.lastTrack = index;
    this.dataBytes += data.length;
  }

  fileSample(index: number, dts: number, cto: number, sync: boolean, offset: number, size: number): void {
    this.use('file');
    const t = this.tracks[index]!.t;
    // Samples that follow each other in the file share a chunk (fMP4 runs); FLV's tag headers split every one.
    t.add(this.forward(t, dts), cto, sync, size, this.lastTrack !== index || offset !== this.lastEnd, offset);
    this.lastTrack = index;
    this.lastEnd = offset + size;
    if (offset < this.regionStart) this.regionStart = offset;
    if (this.lastEnd > this.regionEnd) this.regionEnd = this.lastEnd;
  }

  /** Whether the mdat is a verbatim copy of the input's region (else pass 2 demuxes again and writes each sample). */
  get verbatim(): boolean {
    return this.mode === 'file';
  }

  /** Bytes the mdat will hold: what pass 2 must write. */
  get mediaBytes(): number {
    return this.mode === 'file' ? Math.max(0, this.regionEnd - this.regionStart) : this.dataBytes;
  }

  /** Writes ftyp + moov + the mdat's header to fd: everything before the media bytes. */
  writeHeader(fd: number): void {
    for (const part of this.header()) {
      if (Buffer.isBuffer(part)) writeAll(fd, part);
      else part.writeTo(fd);
    }
  }

  /** Indexes of the tracks with samples (pass 2 writes only theirs, as the moov lists only them). */
  keptTracks(): Set<number> {
    return new Set(this.tracks.flatMap((t, i) => (t.t.samples > 0 ? [i] : [])));
  }

  /** What each track holds (empty tracks left out, as in the moov). */
  summary(): MuxedTrack[] {
    return this.kept().map((t) => ({
      handler: t.setup.handler, samples: t.t.samples, duration: t.t.duration / t.setup.timescale, descriptions: t.entries.length,
      probes: this.mode === 'file' ? [t.t.ends.first, t.t.ends.last].map((e) => ({ at: e.offset, size: e.size })) : [],
    }));
  }

  private kept(): Track[] {
    for (const t of this.tracks) t.t.finish();
    return this.tracks.filter((t) => t.t.samples > 0);
  }

  private use(mode: 'file' | 'built'): void {
    if (this.mode !== null && this.mode !== mode) throw new Error('a demuxer reported samples both ways');
    this.mode = mode;
  }

  /** A timestamp going back (a reconnect inside the file): the sample is kept, at the previous time. */
  private forward(t: TrackTables, dts: number): number {
    if (t.samples === 0 || dts >= t.lastDts) return dts;
    this.anomaly('backwards-timestamp');
    return t.lastDts;
  }

  private header(): BoxList {
    const tracks = this.kept();
    if (tracks.length === 0) throw new Error('no samples in the input');
    const media = this.mediaBytes;
    const ftyp = box('ftyp', Buffer.from('isom'), u32(0x200), Buffer.from('isomiso2mp41'));
    const large = media + 8 > 0xffffffff;
    const mdatHead = large ? Buffer.concat([u32(1), Buffer.from('mdat'), u64(media + 16)]) : Buffer.concat([u32(media + 8), Buffer.from('mdat')]);
    // The moov's size depends on stco vs co64 only, never on the offsets: measure, then build for real.
    const base = this.mode === 'file' ? this.regionStart : 0;
    const size = listBytes(this.moov(tracks, 0, false));
    const co64 = ftyp.length + size + mdatHead.length + media > 0xffffffff;
    const moovSize = co64 ? listBytes(this.moov(tracks, 0, true)) : size;
    return [ftyp, ...this.moov(tracks, ftyp.length + moovSize + mdatHead.length - base, co64), mdatHead];
  }

  private moov(tracks: Track[], shift: number, co64: boolean): BoxList {
    const start = (t: Track): number => t.t.firstDts / t.setup.timescale;
    const firstSec = Math.min(...tracks.map(start));
    const movieDur = Math.max(...tracks.map((t) => start(t) - firstSec + t.t.duration / t.setup.timescale));
    const mvhd = fullBox('mvhd', 0, 0, u32(0, 0, MOVIE_TIMESCALE, Math.round(movieDur * MOVIE_TIMESCALE), 0x10000), Buffer.from([1, 0, 0, 0]),
      Buffer.alloc(8), MATRIX, Buffer.alloc(24), u32(tracks.length + 1));
    return boxList('moov', mvhd, ...tracks.map((t, i) => trak(t.setup, t.entries, t.t, i + 1, shift, co64, start(t) - firstSec)));
  }
}
