// Turns per-group pipeline stats and byte counters into brec's recordingStats and 2-second ioStats.
import { emptyIoStats, emptyRecordingStats, type IoStats, type RecordingStats } from './protocol.js';

/** What one processed group contributes (brec's StatsRule output for that group). */
export interface GroupStatsInput {
  inputVideoBytes: number;
  inputAudioBytes: number;
  /** False when the group produced no data: brec then reports 0 for the output and file fields (quirk kept). */
  hasData: boolean;
  outputVideoFrames: number;
  outputAudioFrames: number;
  outputVideoBytes: number;
  outputAudioBytes: number;
  addedDuration: number;
  currentFileSize: number;
  fileMaxTimestamp: number;
  sessionMaxTimestamp: number;
}

/** brec measures the first interval from DateTimeOffset.MinValue (year 1), so the first ratio is ~0. */
const YEAR_ONE_MS = -62_135_596_800_000;
const MIB = 1024 * 1024;

export class StatsTracker {
  recording: RecordingStats = emptyRecordingStats();
  io: IoStats = emptyIoStats();
  private sessionStart = Date.now();
  private lastGroupAt = YEAR_ONE_MS;
  private tickStart: number | null = null;
  private netBytes = 0;
  private diskBytes = 0;
  private diskMs = 0;

  /** A new session (brec: a new record task) starts: everything resets. */
  reset(): void {
    this.recording = emptyRecordingStats();
    this.io = emptyIoStats();
    this.sessionStart = Date.now();
    this.lastGroupAt = YEAR_ONE_MS;
    this.tickStart = null;
    this.netBytes = this.diskBytes = this.diskMs = 0;
  }

  /** Records one processed group; returns the new snapshot. */
  group(g: GroupStatsInput, now = Date.now()): RecordingStats {
    const r = this.recording;
    r.sessionDuration = now - this.sessionStart;
    r.passedTime = now - this.lastGroupAt;
    this.lastGroupAt = now;
    r.inputVideoBytes = g.inputVideoBytes;
    r.inputAudioBytes = g.inputAudioBytes;
    r.totalInputVideoBytes += g.inputVideoBytes;
    r.totalInputAudioBytes += g.inputAudioBytes;
    r.totalInputBytes = r.totalInputVideoBytes + r.totalInputAudioBytes;
    r.addedDuration = g.addedDuration;
    r.durationRatio = r.addedDuration / r.passedTime;
    r.outputVideoFrames = g.hasData ? g.outputVideoFrames : 0;
    r.outputAudioFrames = g.hasData ? g.outputAudioFrames : 0;
    r.outputVideoBytes = g.hasData ? g.outputVideoBytes : 0;
    r.outputAudioBytes = g.hasData ? g.outputAudioBytes : 0;
    r.totalOutputVideoFrames += r.outputVideoFrames;
    r.totalOutputAudioFrames += r.outputAudioFrames;
    r.totalOutputVideoBytes += r.outputVideoBytes;
    r.totalOutputAudioBytes += r.outputAudioBytes;
    r.totalOutputBytes = r.totalOutputVideoBytes + r.totalOutputAudioBytes;
    r.currentFileSize = g.hasData ? g.currentFileSize : 0;
    r.fileMaxTimestamp = g.hasData ? g.fileMaxTimestamp : 0;
    r.sessionMaxTimestamp = g.hasData ? g.sessionMaxTimestamp : 0;
    return r;
  }

  network(bytes: number): void {
    this.netBytes += bytes;
  }

  disk(bytes: number, ms: number): void {
    this.diskBytes += bytes;
    this.diskMs += ms;
  }

  /** Starts the 2-second IO interval when the stream starts being read. */
  startIo(streamHost: string, now = Date.now()): void {
    this.io.streamHost = streamHost;
    this.tickStart = now;
  }

  /** Closes the current IO interval (called every 2 s while reading); returns the new snapshot. */
  tickIo(now = Date.now()): IoStats {
    const start = this.tickStart ?? now;
    const ms = now - start;
    this.io = {
      streamHost: this.io.streamHost,
      startTime: start,
      endTime: now,
      duration: ms,
      networkBytesDownloaded: this.netBytes,
      networkMbps: ms > 0 ? (this.netBytes * 8) / MIB / (ms / 1000) : 0,
      diskWriteDuration: this.diskMs,
      diskBytesWritten: this.diskBytes,
      // 0/0 is NaN and n/0 is Infinity, exactly what brec reports.
      diskMBps: this.diskBytes / MIB / (this.diskMs / 1000),
    };
    this.tickStart = now;
    this.netBytes = this.diskBytes = this.diskMs = 0;
    return this.io;
  }

  /** The stream is no longer read: no host until the next connection. */
  stopIo(): void {
    this.io = { ...this.io, streamHost: null };
    this.tickStart = null;
  }
}
