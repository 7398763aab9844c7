// Which samples of a recording a clip keeps: from the last video keyframe at or before its start to its end.
import type { SampleSink, TrackSetup } from '../post/remux/track.js';

/** The clip's cut, found by a first read of the file (see scanClip). */
export interface ClipCut {
  /** The index, in file order over every track, of the keyframe the clip starts at. */
  keySample: number;
  /** Milliseconds on the file's timeline (0 = its first sample) of that keyframe: where the clip really starts. */
  fromMs: number;
  /** The clip ends before this time (ms on the file's timeline). */
  toMs: number;
  /** The file's timeline origin: the earliest first sample's time, in seconds of the tracks' own clocks. */
  originS: number;
}

/** A sample this far past the end stops the read: interleaved tracks never lag each other by as much. */
const READ_PAST_MS = 10_000;

/** Thrown to stop a demuxer once the clip's end is read (demuxers read whole files otherwise). */
export class EnoughRead extends Error {}

/** A filter in front of a sink: counts samples in file order and passes on those inside the cut. */
export class ClipWindow implements SampleSink {
  private readonly setups: TrackSetup[] = [];
  private n = 0;

  constructor(private readonly target: SampleSink, private readonly cut: ClipCut) {}

  track(setup: TrackSetup): number {
    this.setups.push(setup);
    return this.target.track(setup);
  }

  anomaly(what: string): void {
    this.target.anomaly(what);
  }

  description(track: number, sampleEntry: Buffer): void {
    this.target.description(track, sampleEntry);
  }

  private keep(track: number, dts: number): boolean {
    const i = this.n++;
    const ms = (dts / this.setups[track]!.timescale - this.cut.originS) * 1000;
    if (ms >= this.cut.toMs + READ_PAST_MS) throw new EnoughRead();
    return i >= this.cut.keySample && ms >= this.cut.fromMs - 0.5 && ms < this.cut.toMs;
  }

  sample(track: number, dts: number, cto: number, sync: boolean, data: Uint8Array): void {
    if (this.keep(track, dts)) this.target.sample(track, dts, cto, sync, data);
  }

  fileSample(track: number, dts: number, cto: number, sync: boolean, offset: number, size: number): void {
    if (this.keep(track, dts)) this.target.fileSample(track, dts, cto, sync, offset, size);
  }
}

/** First read: the timeline's origin and the last video keyframe at or before startMs (else the first one after). */
export class CutFinder implements SampleSink {
  private readonly setups: TrackSetup[] = [];
  private readonly firsts: number[] = [];
  private n = 0;
  private key: { n: number; s: number } | null = null;
  private after: { n: number; s: number } | null = null;
  /** The latest sample time read (ms): a start past it is past the recording's end. */
  private lastMs = -Infinity;
  anomalies: Record<string, number> = {};

  constructor(private readonly startMs: number, private readonly endMs: number) {}

  track(setup: TrackSetup): number {
    this.setups.push(setup);
    return this.setups.length - 1;
  }

  anomaly(what: string): void {
    this.anomalies[what] = (this.anomalies[what] ?? 0) + 1;
  }

  description(): void {
    // The cut depends on times and keyframes only, not on the codec setup.
  }

  private origin(): number {
    return this.firsts.length ? Math.min(...this.firsts.filter((f) => f !== undefined)) : 0;
  }

  sample(track: number, dts: number, _cto: number, sync: boolean): void {
    const i = this.n++;
    const s = dts / this.setups[track]!.timescale;
    this.firsts[track] ??= s;
    const ms = (s - this.origin()) * 1000;
    if (ms >= this.endMs + READ_PAST_MS) throw new EnoughRead();
    if (ms > this.lastMs) this.lastMs = ms;
    if (this.setups[track]!.handler !== 'vide' || !sync) return;
    if (ms <= this.startMs) this.key = { n: i, s };
    else if (!this.after && ms < this.endMs) this.after = { n: i, s };
  }

  fileSample(track: number, dts: number, cto: number, sync: boolean): void {
    this.sample(track, dts, cto, sync);
  }

  /** The cut, or null when no video keyframe lies before endMs or the recording ends before startMs. */
  cut(): ClipCut | null {
    if (this.lastMs < this.startMs) return null;
    const k = this.key ?? this.after;
    if (!k) return null;
    const originS = this.origin();
    return { keySample: k.n, fromMs: Math.round((k.s - originS) * 1e6) / 1e3, toMs: this.endMs, originS };
  }
}
