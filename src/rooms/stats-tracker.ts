// Turns per-group pipeline stats and byte counters into brec's recordingStats and 2-second ioStats.
import type { RecordingStatsDelta } from '../flv/rules/stats.js';
import { emptyIoStats, emptyRecordingStats, type IoStats, type RecordingStats } from './protocol.js';

/** brec measures the first interval from DateTimeOffset.MinValue (year 1), so the first ratio is ~0. */
const YEAR_ONE_MS = -62_135_596_800_000;
const MIB = 1024 * 1024;

export class StatsTracker {
  recording: RecordingStats = emptyRecordingStats();
  io: IoStats = emptyIoStats();
  private sessionStart = Date.now();
  private lastGroupAt = YEAR_ONE_MS;
  private tickStart: number | null = null;
  /** sessionMaxTimestamp of earlier connections: each connection's pipeline counts from 0. */
  private earlierConnectionsMs = 0;
  private connectionMaxMs = 0;
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
    this.earlierConnectionsMs = this.connectionMaxMs = 0;
  }

  /** A new connection (new pipeline) within the same session. */
  newConnection(): void {
    this.earlierConnectionsMs += this.connectionMaxMs;
    this.connectionMaxMs = 0;
  }

  /** Records one processed group (brec StatsRule output); returns the new snapshot. */
  group(g: RecordingStatsDelta, now = Date.now()): RecordingStats {
    const r = this.recording;
    r.sessionDuration = now - this.sessionStart;
    r.passedTime = now - this.lastGroupAt;
    this.lastGroupAt = now;
    r.inputVideoBytes = g.inputVideoBytes;
    r.inputAudioBytes = g.inputAudioBytes;
    r.totalInputVideoBytes += g.inputVideoBytes;
    r.totalInputAudioBytes += g.inputAudioBytes;
    r.totalInputBytes = r.totalInputVideoBytes + r.totalInputAudioBytes;
    // The pipeline counts media seconds; brec's REST stats are milliseconds.
    r.addedDuration = g.addedDuration * 1000;
    r.durationRatio = r.addedDuration / r.passedTime;
    r.outputVideoFrames = g.outputVideoFrames;
    r.outputAudioFrames = g.outputAudioFrames;
    r.outputVideoBytes = g.outputVideoBytes;
    r.outputAudioBytes = g.outputAudioBytes;
    r.totalOutputVideoFrames += g.outputVideoFrames;
    r.totalOutputAudioFrames += g.outputAudioFrames;
    r.totalOutputVideoBytes += g.outputVideoBytes;
    r.totalOutputAudioBytes += g.outputAudioBytes;
    r.totalOutputBytes = r.totalOutputVideoBytes + r.totalOutputAudioBytes;
    // Zero when the group had no data (brec quirk, already applied by the rule).
    r.currentFileSize = g.currentFileSize;
    r.fileMaxTimestamp = g.fileMaxTimestamp;
    if (g.sessionMaxTimestamp > 0) this.connectionMaxMs = g.sessionMaxTimestamp;
    r.sessionMaxTimestamp = g.sessionMaxTimestamp > 0 ? this.earlierConnectionsMs + g.sessionMaxTimestamp : 0;
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
