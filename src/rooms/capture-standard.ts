// One connection in Standard mode: bytes → parser → repair pipeline → FLV files, with stats and cutting.
import { BiliErrorCode, BilibiliError } from '../bilibili/errors.js';
import type { CaptureInput } from './origin-switch.js';
import type { RoomSettings } from '../config/fields.js';
import { LiverecError } from '../errors.js';
import { captureLimits, type CaptureLimits } from '../flv/group-limits.js';
import type { RecordingStatsDelta } from '../flv/rules/stats.js';
import { projectTimestamp, takeClosedJumps } from '../flv/rules/update-timestamp-jump.js';
import { FlvStream, type StreamStep } from '../flv/stream.js';
import { TagArena } from '../flv/tag-arena.js';
import { recentGroups, seedGroups } from '../flv/rules/remove-duplicated-chunk.js';
import { type FlvTag, isData } from '../flv/tag.js';
import { FlvContextWriter } from '../flv/writer/context-writer.js';
import { FlvFileOutput } from '../flv/writer/file-output.js';
import { previewTap } from '../preview/tap.js';
import type { FileWatcher } from './gaps/held-gap.js';
import type { ActorOutbox } from './actor-outbox.js';
import type { RecordingFiles } from './recording-files.js';
import type { StatsTracker } from './stats-tracker.js';
import { outputOnDisk } from './stats-on-disk.js';

export interface CaptureEnd {
  /** handoff: ended at a GOP boundary because another connection of the session takes over (origin switch). */
  reason: 'eof' | 'stopped' | 'error' | 'disconnect' | 'handoff';
  error?: unknown;
  /** Stream bytes received on this connection. */
  bytes: number;
}

export interface CaptureDeps {
  settings: () => RoomSettings;
  files: RecordingFiles;
  stats: StatsTracker;
  outbox: ActorOutbox;
}

const MIB = 1024 * 1024;
const IO_TICK_MS = 2000;

/** The shared frame of both modes: IO ticks, stop handling, and a coded end reason. */
export abstract class Capture {
  protected download: CaptureInput | null = null;
  private stopped = false;
  /** Last time the capture made progress: a complete tag (Standard) or body bytes (RawData). Not just any byte. */
  protected progressAt = Date.now();
  /** Why the capture cut its own connection (stalled, over its memory budget); reported as the end's error. */
  private abortReason: LiverecError | null = null;

  constructor(protected readonly deps: CaptureDeps) {}

  /** Reads the stream until it ends, fails or `stop()` is called; always leaves every file closed. */
  async run(download: CaptureInput): Promise<CaptureEnd> {
    this.download = download;
    const { stats, outbox } = this.deps;
    stats.startIo(new URL(download.url).host);
    const tick = setInterval(() => outbox.stats(undefined, stats.tickIo()), IO_TICK_MS);
    const watchdogMs = this.deps.settings().TimingWatchdogTimeout;
    this.progressAt = Date.now();
    const watchdog = setInterval(() => {
      if (Date.now() - this.progressAt <= watchdogMs) return;
      this.abort(new BilibiliError(BiliErrorCode.StreamStalled, `No complete tag for ${watchdogMs} ms (bytes may still trickle in)`));
    }, Math.max(250, Math.min(IO_TICK_MS, watchdogMs / 4)));
    try {
      const end = await this.consume(download);
      if (this.stopped) return { ...end, reason: 'stopped' };
      return this.abortReason ? { reason: 'error', error: this.abortReason, bytes: download.bytesReceived } : end;
    } catch (error) {
      return { reason: this.stopped ? 'stopped' : 'error', error: this.abortReason ?? error, bytes: download.bytesReceived };
    } finally {
      clearInterval(tick);
      clearInterval(watchdog);
      if (!this.holdsFiles()) {
        this.closeFiles();
        this.finished();
      }
      stats.stopIo();
      outbox.stats(undefined, stats.io);
    }
  }

  stop(): void {
    this.stopped = true;
    this.download?.stop();
  }

  /**
   * Ends this connection the way the server ends a stream (for a URL about to expire): not a stop, so a capture that
   * holds its file for the next connection (gaps/filling-capture.ts) keeps it, and the next one joins it.
   */
  renew(): void {
    this.download?.stop();
  }

  /** Ends the connection on the capture's own account; what was read so far is still written and closed. */
  protected abort(reason: LiverecError): void {
    this.abortReason ??= reason;
    this.download?.stop();
  }

  protected get aborted(): boolean {
    return this.abortReason !== null;
  }

  /** Closes files synchronously (also used when the worker is going down). */
  abstract closeFiles(): void;
  /** The connection is over and every file is closed: release what the capture held. */
  protected finished(): void {}
  abstract split(): void;
  protected abstract consume(download: CaptureInput): Promise<CaptureEnd>;
  /** True while the capture keeps its file open for the next connection (see gaps/filling-capture.ts). */
  protected holdsFiles(): boolean {
    return false;
  }
}

/** The file output, also remembering where the open file's timeline starts: its first written media timestamp. */
class TimelineFileOutput extends FlvFileOutput {
  origin: number | null = null;
  /** Told of each file opened and each data group written (a reconnect's gap is placed by them: gaps/held-gap.ts). */
  watcher: FileWatcher | null = null;

  override open(...args: Parameters<FlvFileOutput['open']>): void {
    this.origin = null;
    super.open(...args);
    this.watcher?.opened();
  }

  override writeData(tags: readonly FlvTag[]): void {
    if (this.origin === null && tags.length > 0) this.origin = Math.min(...tags.map((t) => t.timestamp));
    super.writeData(tags);
    this.watcher?.data(tags);
  }
}

export class StandardCapture extends Capture {
  private readonly writer: FlvContextWriter;
  protected readonly stream: FlvStream;
  private readonly output: TimelineFileOutput;
  protected readonly limits: CaptureLimits;
  /** Held tags are copied here (slabs shared by the thread's rooms), not into an allocation each. */
  protected readonly arena = new TagArena();
  /** Set by handOff(): stop at the last whole GOP, dropping the open one (the next connection carries it). */
  private handedOff = false;

  constructor(deps: CaptureDeps) {
    super(deps);
    this.limits = captureLimits(deps.settings().RecordMemoryBudgetMB);
    const { files } = deps;
    const output = this.output = new TimelineFileOutput({
      nextPath: () => files.nextPath(),
      beforeScriptWrite: (map) => files.decorate(map),
      onFileOpened: ({ path, codec }) => files.opened(path, codec),
      onFileClosed: (info) => files.closed(info),
      openFlags: 'wx',
      hevcForm: deps.settings().FlvKeepHevcCodec12 ? 'codec12' : 'enhanced',
      // The live preview reads the appended bytes here (src/preview/): nothing is copied while nobody watches.
      fs: previewTap(deps.outbox.room, () => deps.outbox.room).fs(),
    });
    this.writer = new FlvContextWriter(output, { allowMissingHeader: false });
    this.stream = new FlvStream({
      preset: 'recording', splitOnScriptTag: deps.settings().FlvProcessorSplitOnScriptTag, writer: this.writer, stripFillerOnCopy: true,
      maxTagBytes: this.limits.maxTagBytes, groupLimits: this.limits.group, arena: this.arena,
    });
  }

  split(): void {
    this.stream.processor.requestSplit();
  }

  /** Tells `w` of every file this capture opens and every data group it writes. */
  protected watchFiles(w: FileWatcher): void {
    this.output.watcher = w;
  }

  /** The fingerprints of the last GOPs this capture kept (written), oldest first. */
  keptGroups(): Array<[number, number]> {
    return recentGroups(this.stream.processor.session);
  }

  /** GOPs with these fingerprints count as already written: they are dropped when they arrive on this connection. */
  seedKeptGroups(groups: ReadonlyArray<readonly [number, number]>): void {
    seedGroups(this.stream.processor.session, groups);
  }

  /**
   * Ends this connection at its last whole GOP: nothing more is read or written, the open GOP is dropped (the
   * connection taking over carries it), and run() resolves with reason 'handoff' after closing the file.
   */
  handOff(): Array<[number, number]> {
    this.handedOff = true;
    this.download?.stop();
    return this.keptGroups();
  }

  closeFiles(): void {
    this.writer.close();
  }

  protected override finished(): void {
    this.arena.dispose();
  }

  protected async consume(download: CaptureInput): Promise<CaptureEnd> {
    const { stats } = this.deps;
    let end: CaptureEnd | null = null;
    let consumed = 0;
    await download.consume((chunk) => {
      if (end || this.aborted || this.handedOff) return;
      stats.network(chunk.length);
      const t0 = performance.now();
      const step = this.pushChunk(chunk);
      if (this.bytesConsumed !== consumed) {
        consumed = this.bytesConsumed;
        this.progressAt = Date.now();
      }
      end = this.afterStep(step, t0, download);
      if (end) download.stop();
    });
    if (end) return end;
    if (this.handedOff) return { reason: 'handoff', bytes: download.bytesReceived };
    const last = this.endInput();
    last.groups.forEach((g, i) => g.stats && this.onStats(outputOnDisk(g.stats, last.written[i] ?? 0)));
    return { reason: last.error ? 'error' : 'eof', error: last.error ?? undefined, bytes: download.bytesReceived };
  }

  /** Parses and processes one chunk; the chunk lives in the connection's reused read buffer, so held bytes are copied out. */
  protected pushChunk(chunk: Uint8Array): StreamStep {
    const step = this.stream.push(chunk);
    this.stream.detach(chunk.buffer);
    this.stream.release();
    return step;
  }

  /** Stream bytes parsed so far on this connection (progress for the watchdog). */
  protected get bytesConsumed(): number {
    return this.stream.parser.bytesConsumed;
  }

  /** The connection ended cleanly: the last group is processed. */
  protected endInput(): StreamStep {
    return this.stream.end();
  }

  /** Stats, gaps, the memory budget and how the step ends the connection (null: it goes on). */
  protected afterStep(step: StreamStep, t0: number, download: CaptureInput): CaptureEnd | null {
    if (step.bytesWritten > 0) this.deps.stats.disk(step.bytesWritten, performance.now() - t0);
    step.groups.forEach((g, i) => g.stats && this.onStats(outputOnDisk(g.stats, step.written[i] ?? 0)));
    this.reportJumps();
    this.reportPosition();
    const held = this.stream.heldBytes;
    if (held > this.limits.budgetBytes) {
      this.abort(new LiverecError('ROOM_MEMORY_BUDGET', `The capture holds ${held} bytes, over RecordMemoryBudgetMB (${this.limits.budgetBytes} bytes)`));
    }
    if (step.error) return { reason: 'error', error: step.error, bytes: download.bytesReceived };
    if (step.disconnect) return { reason: 'disconnect', error: step.disconnect, bytes: download.bytesReceived };
    return null;
  }

  /** Forward timestamp jumps the repair closed are media the file lacks: reported as gaps. */
  protected reportJumps(): void {
    for (const j of takeClosedJumps(this.stream.processor.session)) this.deps.files.gap(j.atMs, j.durationMs, 'timestamp-jump');
  }

  /**
   * The newest received tag, placed on the open file's timeline where the repair will put it (danmaku timing):
   * received data is held until its GOP completes, so the written data alone lags the stream by up to a GOP.
   */
  private reportPosition(): void {
    const origin = this.output.origin;
    const pending = this.stream.grouper.pending;
    if (origin === null || pending.length === 0 || !isData(pending[0]!)) return;
    const ts = projectTimestamp(this.stream.processor.session, pending[0]!.timestamp, pending[pending.length - 1]!.timestamp);
    this.deps.files.mediaPosition(ts - origin);
  }

  /** Publishes the group's stats and applies brec's cutting rules (checked after every stats event). */
  private onStats(delta: RecordingStatsDelta): void {
    const { stats, outbox, settings } = this.deps;
    outbox.stats(stats.group(delta));
    const s = settings();
    if (s.CuttingMode === 1 && delta.fileMaxTimestamp > s.CuttingNumber * 60_000) this.split();
    else if (s.CuttingMode === 2 && (delta.currentFileSize + delta.outputVideoBytes * 1.1 + delta.outputAudioBytes) / MIB > s.CuttingNumber) {
      this.split();
    }
  }
}
