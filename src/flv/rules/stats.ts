// Stats rule (runtime): per processed group, brec's RecordingStats numbers (bytes, frames, file size, timestamps).
import type { DataAction } from '../pipeline/actions.js';
import type { ProcessingContext, ProcessingRule } from '../pipeline/context.js';
import { type NaluSummary, naluSummary } from '../nalu.js';
import { TagType } from '../tag.js';

const summary: NaluSummary = { ok: false, bodySize: 0, filler: false, tiles: false };

/**
 * One group's statistics, with brec's StatsRule semantics. Wall-clock values (PassedTime, DurationRatio,
 * SessionDuration) are left to the caller: DurationRatio = addedDuration / passedTime-in-seconds.
 * Quirk kept from brec: when the group produced no data, currentFileSize, fileMaxTimestamp and
 * sessionMaxTimestamp are 0 in this delta (the running values are unchanged).
 */
export interface RecordingStatsDelta {
  /** Σ(Size + 15) of input video / audio data tags of this group (before the rules). */
  inputVideoBytes: number;
  inputAudioBytes: number;
  totalInputVideoBytes: number;
  totalInputAudioBytes: number;
  totalInputBytes: number;
  /** Output data tags of the (last) run of data actions. */
  outputVideoFrames: number;
  outputAudioFrames: number;
  /** Video: 15 + (5 + Σ(NALU size + 4)) when the NALU list is known, else 15 + Size; audio: Size + 15. */
  outputVideoBytes: number;
  outputAudioBytes: number;
  totalOutputVideoFrames: number;
  totalOutputAudioFrames: number;
  totalOutputVideoBytes: number;
  totalOutputAudioBytes: number;
  totalOutputBytes: number;
  /** Seconds of media added: Σ (last − first timestamp) / 1000 over the output data actions. */
  addedDuration: number;
  /** Predicted size of the current file: starts at 13 and adds data bytes only (no script/header). */
  currentFileSize: number;
  /** Last output timestamp (ms) in the current file. */
  fileMaxTimestamp: number;
  /** Sum of the closed files' max timestamps + the current file's (ms). */
  sessionMaxTimestamp: number;
}

export class StatsRule implements ProcessingRule {
  /** The delta of the most recent group. */
  last: RecordingStatsDelta | null = null;
  private totalInputVideo = 0;
  private totalInputAudio = 0;
  private totalOutVideoFrames = 0;
  private totalOutAudioFrames = 0;
  private totalOutVideoBytes = 0;
  private totalOutAudioBytes = 0;
  private currentFileSize = 13;
  private sumOfClosedMax = 0;
  private currentFileMax = 0;

  run(ctx: ProcessingContext, next: () => void): void {
    let inV = 0;
    let inA = 0;
    for (const a of ctx.actions) {
      if (a.kind !== 'Data') continue;
      for (const t of a.tags) {
        if (t.type === TagType.Video) inV += t.size + 15;
        else if (t.type === TagType.Audio) inA += t.size + 15;
      }
    }
    this.totalInputVideo += inV;
    this.totalInputAudio += inA;
    const e: RecordingStatsDelta = {
      inputVideoBytes: inV, inputAudioBytes: inA,
      totalInputVideoBytes: this.totalInputVideo, totalInputAudioBytes: this.totalInputAudio,
      totalInputBytes: this.totalInputVideo + this.totalInputAudio,
      outputVideoFrames: 0, outputAudioFrames: 0, outputVideoBytes: 0, outputAudioBytes: 0,
      totalOutputVideoFrames: this.totalOutVideoFrames, totalOutputAudioFrames: this.totalOutAudioFrames,
      totalOutputVideoBytes: this.totalOutVideoBytes, totalOutputAudioBytes: this.totalOutAudioBytes,
      totalOutputBytes: this.totalOutVideoBytes + this.totalOutAudioBytes,
      addedDuration: 0, currentFileSize: 0, fileMaxTimestamp: 0, sessionMaxTimestamp: 0,
    };
    next();
    let run: DataAction[] | null = null;
    for (const a of ctx.actions) {
      if (a.kind === 'Data') {
        if (!run) run = [];
        run.push(a);
      } else if (a.kind === 'NewFile') {
        if (run) this.calc(e, run);
        run = null;
        this.sumOfClosedMax += this.currentFileMax;
        this.currentFileMax = 0;
        this.currentFileSize = 13;
      }
    }
    if (run) this.calc(e, run);
    this.last = e;
  }

  private calc(e: RecordingStatsDelta, run: DataAction[]): void {
    let vf = 0, af = 0, vb = 0, ab = 0;
    for (const a of run) {
      for (const t of a.tags) {
        if (t.type === TagType.Video) {
          vf++;
          const n = naluSummary(t, summary);
          vb += (n.ok ? n.bodySize : t.size) + 15;
        } else if (t.type === TagType.Audio) {
          af++;
          ab += t.size + 15;
        }
      }
    }
    e.outputVideoFrames = vf;
    e.outputAudioFrames = af;
    e.outputVideoBytes = vb;
    e.outputAudioBytes = ab;
    e.totalOutputVideoFrames = this.totalOutVideoFrames += vf;
    e.totalOutputAudioFrames = this.totalOutAudioFrames += af;
    e.totalOutputVideoBytes = this.totalOutVideoBytes += vb;
    e.totalOutputAudioBytes = this.totalOutAudioBytes += ab;
    e.totalOutputBytes = this.totalOutVideoBytes + this.totalOutAudioBytes;
    e.currentFileSize = this.currentFileSize += vb + ab;
    for (const a of run) {
      const tags = a.tags;
      if (tags.length === 0) continue;
      e.addedDuration += (tags[tags.length - 1]!.timestamp - tags[0]!.timestamp) / 1000;
      this.currentFileMax = e.fileMaxTimestamp = tags[tags.length - 1]!.timestamp;
    }
    e.sessionMaxTimestamp = this.sumOfClosedMax + this.currentFileMax;
  }
}
