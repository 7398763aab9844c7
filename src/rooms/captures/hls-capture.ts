// One HLS connection (fMP4 → .mp4, TS → .ts): live playlist client → segment writer → files, with FLV's stats, events and cutting.
import type { StreamUrl } from '../../bilibili/stream-url.js';
import type { ClientOptions } from '../../bilibili/client-options.js';
import { Fmp4Writer } from '../../hls/fmp4-writer.js';
import { HlsLiveClient, type HlsResume } from '../../hls/live-client.js';
import type { SegmentWriter } from '../../hls/segment-writer.js';
import type { PlaylistSegment } from '../../hls/playlist.js';
import { olderShareInit, reachBack } from '../../hls/backfill/reach-back.js';
import { TsWriter } from '../../hls/ts-writer.js';
import type { RecordingStatsDelta } from '../../flv/rules/stats.js';
import type { CaptureDeps, CaptureEnd } from '../capture-standard.js';
import { sourceBox } from '../../hls/mp4-source-box.js';
import { hlsLimits } from '../../hls/hls-limits.js';
import { LiverecError } from '../../errors.js';
import { HlsErrorCode } from '../../hls/segment-fetch.js';
import { previewTap } from '../../preview/tap.js';

const MIB = 1024 * 1024;
const IO_TICK_MS = 2000;


export interface HlsCaptureDeps extends CaptureDeps {
  stream: StreamUrl;
  http: Partial<ClientOptions>;
  /** Shared by the session's HLS connections: the last media sequence taken. */
  resume: HlsResume;
  /** The file writer of the session's previous HLS connection, whose file stayed open for this one. */
  writer?: SegmentWriter;
  /** Keep the file open when the connection fails (stall, playlist errors): the next one continues it (RecordFillGapsFromHls). */
  holdOnFailure?: boolean;
  /** A late start: reach back this many seconds into segments that left the first playlist (0: off). */
  reachBackSeconds?: number;
}

export class HlsCapture {
  readonly writer: SegmentWriter;
  /** The connection failed and the file stays open for the next one. */
  holding = false;
  private readonly client: HlsLiveClient;
  private bytes = 0;
  private stopped = false;
  /** Last time a segment with new media was committed (progress, as a complete tag is for FLV). */
  private progressAt = Date.now();

  constructor(private readonly deps: HlsCaptureDeps) {
    const { files, stats, outbox } = deps;
    const tap = previewTap(outbox.room, () => outbox.room);
    const extension = deps.stream.format === 'ts' ? '.ts' : '.mp4';
    const hooks = {
      nextPath: () => files.nextPath(extension),
      opened: (path: string) => {
        files.opened(path);
        tap.hlsOpened(path, deps.stream.format === 'ts' ? 'ts' : 'mp4');
      },
      closed: (info: { path: string; size: number; duration: number }) => {
        files.closed(info);
        tap.hlsClosed(info.path);
      },
      // The live preview of HLS rooms: whole segments, read back only while someone watches (src/preview/).
      committed: (path: string, start: number, end: number) => tap.hlsCommitted(path, start, end),
      // Missed segments with a later segment after them in the same file (a trailing miss is no hole).
      gap: (startMs: number, durationMs: number) => files.gap(startMs, durationMs, 'hls-segment'),
      segment: (delta: RecordingStatsDelta) => {
        this.progressAt = Date.now();
        this.onStats(delta);
      },
      disk: (bytes: number, ms: number) => stats.disk(bytes, ms),
      log: (level: 'debug' | 'info' | 'warn', msg: string, fields?: Record<string, unknown>) => outbox.log(level, msg, fields),
      fileHead: () => {
        const source = files.eventSource();
        return source ? sourceBox(source) : null;
      },
    };
    const limits = hlsLimits(deps.settings().RecordMemoryBudgetMB);
    this.writer = deps.writer ?? (deps.stream.format === 'ts' ? new TsWriter(hooks) : new Fmp4Writer(hooks, limits.maxHeldBox));
    this.client = new HlsLiveClient({
      playlistUrls: deps.stream.urls,
      http: {
        streamConnectTimeoutMs: deps.http.streamConnectTimeoutMs, watchdogTimeoutMs: deps.http.watchdogTimeoutMs,
        userAgent: deps.http.userAgent, maxRedirects: deps.http.maxRedirects,
      },
      sink: this.writer,
      resume: deps.resume,
      limits,
      onNetwork: (n) => {
        this.bytes += n;
        stats.network(n);
      },
      log: (level, msg, fields) => outbox.log(level, `hls: ${msg}`, fields),
      reachBack: deps.reachBackSeconds ? (first, base, listed) => this.reachBack(first, base, listed, deps.reachBackSeconds!) : undefined,
    });
  }

  /** Reads the live playlist until it ends, fails, stalls or `stop()` is called; always leaves every file closed. */
  async run(): Promise<CaptureEnd> {
    const { stats, outbox } = this.deps;
    stats.startIo(new URL(this.deps.stream.url).host);
    const tick = setInterval(() => outbox.stats(undefined, stats.tickIo()), IO_TICK_MS);
    // Progress watchdog: a segment that never ends, or only repeats, must not keep `recording: true` with nothing written.
    // The watchdog time plus three target durations: playlist retries and a slow segment (the client's own recoveries) fit in it.
    const watchdogMs = this.deps.settings().TimingWatchdogTimeout;
    this.progressAt = Date.now();
    const watchdog = setInterval(() => {
      const limit = watchdogMs + 3 * this.client.targetMs;
      if (Date.now() - this.progressAt <= limit) return;
      this.client.fail(new LiverecError(HlsErrorCode.NoProgress, `No segment written for ${limit} ms (bytes may still trickle in)`));
    }, Math.max(250, Math.min(IO_TICK_MS, watchdogMs / 4)));
    let reason: CaptureEnd['reason'] = 'error';
    try {
      const end = await this.client.run();
      reason = this.stopped ? 'stopped' : end.reason;
      return { reason, error: end.error, bytes: this.bytes };
    } catch (error) {
      reason = this.stopped ? 'stopped' : 'error';
      return { reason, error, bytes: this.bytes };
    } finally {
      clearInterval(tick);
      clearInterval(watchdog);
      this.holding = this.deps.holdOnFailure === true && reason === 'error' && this.writer.isOpen;
      if (!this.holding) this.closeFiles();
      stats.stopIo();
      outbox.stats(undefined, stats.io);
      const { segments, gaps, backfilled, anomalies } = this.client;
      outbox.log('info', 'hls connection summary', { segments, gaps, backfilled, repeatsDropped: this.writer.repeats, anomalies: anomalies + this.writer.anomalies });
    }
  }

  /** The older segments of a late start; the next file's FileOpening says how far back they reach. */
  private async reachBack(first: PlaylistSegment, base: string, listed: readonly PlaylistSegment[], seconds: number): Promise<{ seg: PlaylistSegment; bytes: Buffer }[]> {
    const { http } = this.deps;
    if (!olderShareInit(first)) {
      this.deps.outbox.log('info', 'late start: the stream changed encoding before the live window, so older segments are not fetched (their init section is not listed)', { code: 'HLS_REACH_BACK_SKIPPED', first: first.seq });
      return [];
    }
    const found = await reachBack(first, base, {
      http: { streamConnectTimeoutMs: http.streamConnectTimeoutMs, watchdogTimeoutMs: http.watchdogTimeoutMs, userAgent: http.userAgent, maxRedirects: http.maxRedirects },
      maxSeconds: seconds, maxBytes: (this.deps.settings().RecordMemoryBudgetMB * MIB) / 2,
      onNetwork: (n) => {
        this.bytes += n;
        this.deps.stats.network(n);
      },
    });
    // From the oldest segment to the live edge: the older ones and the whole window, all written.
    if (found.length > 0) this.deps.files.backfilled([...found.map((f) => f.seg), ...listed].reduce((n, s) => n + s.duration * 1000, 0));
    return found;
  }

  /** Counts for tests and logs: segments written, gaps, repeats dropped. */
  get counts(): { segments: number; gaps: number; repeats: number } {
    return { segments: this.client.segments, gaps: this.client.gaps, repeats: this.writer.repeats };
  }

  stop(): void {
    this.stopped = true;
    this.client.stop();
  }

  /** The next segment starts a new file. */
  split(): void {
    this.writer.requestSplit();
  }

  closeFiles(): void {
    this.writer.close();
  }

  /** Publishes the segment's stats and applies brec's cutting rules, as the FLV capture does. */
  private onStats(delta: RecordingStatsDelta): void {
    const { stats, outbox, settings, files } = this.deps;
    files.mediaPosition(delta.fileMaxTimestamp); // danmaku timing: media end on the open file's timeline
    outbox.stats(stats.group(delta));
    const s = settings();
    if (s.CuttingMode === 1 && delta.fileMaxTimestamp > s.CuttingNumber * 60_000) this.split();
    else if (s.CuttingMode === 2 && (delta.currentFileSize + delta.outputVideoBytes + delta.outputAudioBytes) / MIB > s.CuttingNumber) this.split();
  }
}
