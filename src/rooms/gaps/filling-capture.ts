// Standard capture that keeps its file across a dropped connection and fills the missed frames from the HLS window.
import type { CaptureInput } from '../origin-switch.js';
import { errorCode } from '../../errors.js';
import { FlvError } from '../../flv/errors.js';
import { FlvParser } from '../../flv/parser.js';
import type { StreamStep } from '../../flv/stream.js';
import { type FlvTag, TagType, isData, isHeader, isKeyframeData } from '../../flv/tag.js';
import { HlsFrameSource } from '../../hls/backfill/hls-frame-source.js';
import type { HlsHttpOptions } from '../../hls/http-fetch.js';
import { type CaptureDeps, type CaptureEnd, StandardCapture } from '../capture-standard.js';
import { framesToTags } from './frames.js';
import { HeldGap } from './held-gap.js';
import { waitForPlan, writtenEnd } from './plan-wait.js';
import type { Splice, WrittenEnd } from './splice-plan.js';
import { SpliceRoute } from './splice-route.js';

export interface FillingDeps extends CaptureDeps {
  /** The room's fMP4 HLS playlist on every offered host (from the session's play info, else an API call; rejects when none). */
  hlsUrls: (signal: AbortSignal) => Promise<string[]>;
  http: HlsHttpOptions;
  /** How long the room has been live (ms, from the room's live start time); null when unknown. */
  streamAgeMs: () => number | null;
}

const DEFAULT_FRAME_MS = 40;
/** A stream younger than this is recorded from its GOP cache: there is nothing older worth an API call. */
export const LATE_START_MIN_AGE_MS = 5000;

/**
 * Connection 1 runs as a StandardCapture. When it drops while the room is live, the file stays open, the HLS window
 * is read from then on, and the next connection's frames are held until `planSplice` says where they meet the
 * file: the HLS frames in between are written first, in FLV form, on the file's timeline. What cannot be filled
 * is reported as a gap; frames the file already has are dropped. A recording that starts late begins, the same
 * way, at the oldest keyframe still obtainable within RecordGapFillMaxSeconds.
 */
export class FillingCapture extends StandardCapture {
  private holding = false;
  private halted = false;
  private end: WrittenEnd | null = null;
  private droppedAt = 0;
  private source: HlsFrameSource | null = null;
  private connections = 0;
  /** The current spliced connection: its parser, and its tags' way (held for the plan, then shifted). */
  private parser: FlvParser | null = null;
  private route: SpliceRoute | null = null;
  private planning: Promise<void> | null = null;
  private asyncEnd: CaptureEnd | null = null;
  /** The connection ended: a plan still waiting for HLS decides with what it has. */
  private connectionOver = false;
  /** A reconnect's gap, recorded where the first frame after it is written (held-gap.ts). */
  private readonly heldGap: HeldGap;

  constructor(private readonly fill: FillingDeps) {
    super(fill);
    this.heldGap = new HeldGap(
      (startMs, durationMs) => fill.files.gap(startMs, durationMs, 'reconnect'),
      (durationMs) => fill.outbox.log('info', `reconnect: the ${Math.round(durationMs)} ms lost lie between two files (the next frame begins a new file)`, {
        code: 'GAP_BETWEEN_FILES', betweenFilesMs: Math.round(durationMs),
      }),
    );
    this.watchFiles(this.heldGap);
  }

  /** The file is open and waits for the next connection. */
  get holdingFiles(): boolean {
    return this.holding;
  }

  protected override holdsFiles(): boolean {
    return this.holding;
  }

  override stop(): void {
    this.halted = true;
    this.source?.stop();
    super.stop();
  }

  /** No next connection: the open group is written and the file closed. */
  release(): void {
    this.holding = false;
    this.source?.stop();
    this.stream.pushTags([], true);
    this.reportJumps();
    this.closeFiles();
    this.finished();
  }

  protected override async consume(download: CaptureInput): Promise<CaptureEnd> {
    this.connections++;
    this.holding = false;
    this.asyncEnd = null;
    this.connectionOver = false;
    this.planning = null;
    const age = this.fill.streamAgeMs();
    const lateStart = this.connections === 1 && this.fill.settings().RecordGapFillMaxSeconds > 0 && (age === null || age > LATE_START_MIN_AGE_MS);
    if (lateStart) {
      this.end = { video: null, audioTs: null, recent: new Map(), frameMs: DEFAULT_FRAME_MS };
      this.droppedAt = Date.now();
      this.startSource();
    }
    if (this.end) {
      // The first connection is the stream parser's own input: once its plan is applied nothing is left to route
      // (no shift, nothing to drop), and its chunks go the plain way again (see apply). A later one starts with an
      // FLV header of its own: a parser of its own, and routing to the end (its timestamps are shifted).
      this.parser = this.connections === 1 ? this.stream.parser
        : new FlvParser({ stripFillerOnCopy: true, maxTagBytes: this.limits.maxTagBytes, alloc: (n) => this.arena.alloc(n) });
      this.route = new SpliceRoute(this.connections === 1, (type) => this.storedHeader(type));
    }
    let end: CaptureEnd;
    try {
      end = await super.consume(download);
    } catch (error) {
      end = { reason: 'error', error, bytes: download.bytesReceived };
    }
    this.connectionOver = true;
    const started = this.planning !== null;
    await this.planning;
    end = this.asyncEnd ?? end;
    const ownParser = this.parser !== null && this.parser !== this.stream.parser;
    this.parser = null;
    const unplanned = this.route?.waitingForPlan === true;
    this.route = null;
    if (unplanned && !started) {
      // No keyframe came on this connection: nothing met the file yet; a drop's hold goes on (same end, same HLS reading).
      if (this.end?.video && this.resumable(end)) {
        this.holding = true;
        return end;
      }
      this.source?.stop();
      this.source = null;
      this.end = null;
    }
    if (this.resumable(end) && this.hold()) return end;
    // The file does not wait: its open group is written whatever ended the connection (as StandardCapture writes up
    // to the last whole tag on an error or a stop), never dropped; only a hand-off leaves it to the connection taking over.
    if (end.reason !== 'handoff') this.flushOpenGroup(download, ownParser);
    return end;
  }

  protected override pushChunk(chunk: Uint8Array): StreamStep {
    if (!this.parser || !this.route) return super.pushChunk(chunk);
    const r = this.parser.push(chunk);
    const out: FlvTag[] = [];
    for (const t of r.tags) if (this.route.route(t, out) && !this.planning) this.planning = this.decide(this.route);
    const step = out.length > 0 || r.error ? this.stream.pushTags(out, r.error !== null) : EMPTY_STEP;
    if (r.error) step.error ??= r.error;
    this.parser.detach(chunk.buffer);
    this.stream.detach(chunk.buffer);
    this.stream.release();
    return step;
  }

  protected override get bytesConsumed(): number {
    return this.parser?.bytesConsumed ?? super.bytesConsumed;
  }

  protected override endInput(): StreamStep {
    return EMPTY_STEP; // the open group stays open: consume() decides whether the file waits for the next connection
  }

  /** Works out the plan (waiting for HLS as needed), then writes the fill and what the connection held meanwhile. */
  private async decide(route: SpliceRoute): Promise<void> {
    const K = route.held.find(isKeyframeData)!;
    // New sequence headers: other content, a new file follows (no HLS frame may join it; apply reports no gap).
    const headerChange = route.held.some((t) => isHeader(t)) && this.connections > 1;
    const plan = await waitForPlan({
      end: this.end!, keyframe: K, held: () => route.held, source: headerChange ? null : this.source, droppedAt: this.droppedAt,
      maxBackMs: this.fill.settings().RecordGapFillMaxSeconds * 1000,
      hurry: () => this.connectionOver || this.halted || route.waitingBytes > this.limits.budgetBytes / 2,
    });
    this.source?.stop();
    this.source = null;
    this.apply(route, plan, K, this.download);
  }

  private apply(route: SpliceRoute, plan: Splice, K: FlvTag | null, download: CaptureInput | null): void {
    const { files, outbox } = this.fill;
    const held = route.settle(plan);
    // What the connection began with, up to its first keyframe: its script tag and sequence headers. A header held
    // after K is a change of parameters mid-connection (it came while the plan waited): it keeps its place, so the
    // frames before it stay under the header they were encoded with (soak seed 6363 run 37).
    const kAt = K ? held.indexOf(K) : held.findIndex(isKeyframeData);
    const lead = (kAt < 0 ? held : held.slice(0, kAt)).filter((t) => !isData(t));
    const videoHeader = lead.find((t) => isHeader(t) && t.type === TagType.Video) ?? this.storedHeader(TagType.Video);
    const audioHeader = lead.find((t) => isHeader(t) && t.type === TagType.Audio) ?? this.storedHeader(TagType.Audio);
    const fillTags = plan.fill.length > 0 && videoHeader && audioHeader
      ? framesToTags(plan.fill, plan.fillOffset, videoHeader.data![0]! & 0x0f, audioHeader.data![0]!).filter((t) => t.type !== TagType.Audio || plan.dropAudioUpTo === null || t.timestamp > plan.dropAudioUpTo)
      : [];
    if (plan.how === 'hls-late-start' && fillTags.length > 0 && K) files.backfilled(Math.max(0, K.timestamp - fillTags[0]!.timestamp));
    const out: FlvTag[] = lead;
    // A later connection's leading headers differ from the file's (SpliceRoute drops the same ones) and go first: the
    // repair opens a new file on them, so none of the connection's frames follows the written end in this file. The
    // time lost lies between two files and neither lacks it on its own timeline (as with filling off): no gap.
    const newFile = this.connections > 1 && out.some((t) => isHeader(t));
    const gap = newFile ? null : plan.gap;
    out.push(...fillTags);
    // Frames before the keyframe were sent ahead of it (a CDN's GOP cache may lead with audio): after a fill they are
    // the fill's own frames again, so they go.
    const startTs = K && fillTags.length > 0 ? K.timestamp : -Infinity;
    held.forEach((t, i) => {
      if (isData(t) ? t.timestamp >= startTs : kAt >= 0 && i > kAt) route.route(t, out);
    });
    if (route.identity && this.parser === this.stream.parser) this.parser = null; // the plain way from here on
    // The session's first connection (a late start reaching back into HLS) is a start, whatever the plan found: nothing
    // was dropped before it, so "reconnect" and "unaligned" would send a reader looking for an outage that never was.
    if (this.connections === 1) {
      outbox.log('info', fillTags.length > 0 ? `start: ${fillTags.length} frame(s) from before the first keyframe filled from HLS` : 'start: first connection of the session', {
        code: 'SESSION_START', how: fillTags.length > 0 ? plan.how : 'start', filled: fillTags.length, waitedMs: Date.now() - this.droppedAt,
      });
    } else if (newFile) {
      const betweenMs = Math.round(plan.gap?.durationMs ?? 0);
      outbox.log(betweenMs > 0 ? 'warn' : 'info', `reconnect: new-file; new sequence headers, about ${betweenMs} ms of the stream lie between this file and the next`, {
        code: 'GAP_FILL', how: 'new-file', filled: 0, gapMs: 0, betweenFilesMs: betweenMs, waitedMs: Date.now() - this.droppedAt,
      });
    } else {
      outbox.log(gap ? 'warn' : 'info', `reconnect: ${plan.how}; ${fillTags.length} frame(s) filled from HLS`, {
        code: 'GAP_FILL', how: plan.how, filled: fillTags.length, gapMs: gap?.durationMs ?? 0, waitedMs: Date.now() - this.droppedAt,
      });
    }
    const t0 = performance.now();
    // With a gap, the written end's open group goes out first, to whatever file it goes to (a split asked for
    // meanwhile starts a new file with it); the gap is then held for the first frame after it, and lands in the file
    // that frame is written to (soak seed 6363: recorded here on the open file, it stayed on a file the split had
    // closed, past its end).
    const before = gap ? this.stream.flushGroup() : null;
    if (gap) this.heldGap.hold(gap.durationMs);
    const step = joinSteps(before, this.stream.pushTags(out));
    this.stream.release();
    const end = download ? this.afterStep(step, t0, download) : null;
    if (end && !this.asyncEnd) {
      this.asyncEnd = end;
      download?.stop();
    }
  }

  private storedHeader(type: number): FlvTag | null {
    const store = this.stream.processor.session.get<{ video: FlvTag | null; audio: FlvTag | null }>('HandleNewHeaderRule', () => ({ video: null, audio: null }));
    return type === TagType.Video ? store.video : store.audio;
  }

  /** A drop the next connection can continue: the stream went away, not the recorder (stop, disk, bad data, memory). */
  private resumable(end: CaptureEnd): boolean {
    if (this.halted || this.aborted || end.reason === 'stopped' || end.reason === 'disconnect') return false;
    if (end.error instanceof FlvError) return false;
    const code = errorCode(end.error);
    return code !== 'DISK_FULL' && code !== 'ENOSPC' && this.fill.settings().RecordFillGapsFromHls;
  }

  /** Keeps the file open: what it ends with, and the HLS window read from now on. */
  private hold(): boolean {
    this.end = writtenEnd(this.stream.grouper.pending, DEFAULT_FRAME_MS);
    if (!this.end.video) return false; // nothing to align with: the file closes as before
    this.droppedAt = Date.now();
    this.holding = true;
    this.startSource();
    return true;
  }

  private startSource(): void {
    this.source?.stop();
    const s = this.fill.settings();
    if (!s.RecordFillGapsFromHls) return void (this.source = null);
    this.source = new HlsFrameSource({
      urls: this.fill.hlsUrls, http: this.fill.http, maxSeconds: s.RecordGapFillMaxSeconds, maxBytes: this.limits.budgetBytes / 2,
      onNetwork: (n) => this.fill.stats.network(n),
      log: (level, msg, fields) => this.fill.outbox.log(level, msg, fields),
    });
    this.source.start();
  }

  /** The connection ended and the file does not wait: the last group is written (as StandardCapture does). */
  private flushOpenGroup(download: CaptureInput, ownParser: boolean): void {
    const t0 = performance.now();
    const step = ownParser ? this.stream.pushTags([], true) : this.stream.end();
    this.afterStep(step, t0, download);
  }
}

/** Two steps taken one after the other, as one. */
function joinSteps(a: StreamStep | null, b: StreamStep): StreamStep {
  if (!a) return b;
  return {
    groups: [...a.groups, ...b.groups], error: a.error ?? b.error, disconnect: a.disconnect ?? b.disconnect,
    bytesWritten: a.bytesWritten + b.bytesWritten, written: [...a.written, ...b.written],
  };
}

const EMPTY_STEP: StreamStep = Object.freeze({ groups: [], error: null, disconnect: null, bytesWritten: 0, written: [] }) as unknown as StreamStep;
