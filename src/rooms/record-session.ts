// One recording session: connect, capture, reconnect with a new file while the room stays live; SessionStarted/Ended.
import { randomUUID } from 'node:crypto';
import type { ApiPriority } from '../bilibili/api-priority.js';
import type { BilibiliApiClient } from '../bilibili/api-client.js';
import { BiliErrorCode } from '../bilibili/errors.js';
import { cookieHasLogin } from '../bilibili/identity.js';
import { openStream } from '../bilibili/stream-download.js';
import type { StreamUrl } from '../bilibili/stream-url.js';
import type { StreamProvenance } from '../bilibili/provenance.js';
import { resolveClassifiedStream } from '../bilibili/origin-offer.js';
import { resolveStreamUrl } from '../bilibili/stream-url.js';
import { renewDelayMs } from '../bilibili/url-expiry.js';
import type { CaptureInput } from './origin-switch.js';
import { SessionOrigin } from './session-origin.js';
import type { RoomSettings } from '../config/fields.js';
import { errorCode, LiverecError } from '../errors.js';
import type { MediaTimeline } from '../danmaku/media-clock.js';
import type { RoomEventSnapshot } from '../events/types.js';
import { formatLocal } from '../time.js';
import type { ActorOutbox } from './actor-outbox.js';
import { RawCapture } from './capture-raw.js';
import { type Capture, StandardCapture } from './capture-standard.js';
import { HlsCapture } from './captures/hls-capture.js';
import { ProtocolChoice } from './captures/protocol-choice.js';
import { DiskGuard, freeBytes, isDiskFull } from './disk-guard.js';
import { RecordingFiles } from './recording-files.js';
import { FillingCapture } from './gaps/filling-capture.js';
import { PlayInfoMemo } from './gaps/play-info-memo.js';
import type { StatsTracker } from './stats-tracker.js';

/** What a session needs from its room actor. */
export interface SessionHost {
  settings(): RoomSettings;
  api(): BilibiliApiClient;
  outbox: ActorOutbox;
  stats: StatsTracker;
  workDir: string;
  snapshot(): RoomEventSnapshot;
  uid(): number;
  roomInfoJson(): unknown;
  /** The stream's start (unix s) as the live detector saw it (`live_time`); 0 when unknown. */
  liveStartTime?(): number;
  /** The session asked for its first stream (whatever the answer): the room's lower-priority calls may go now. */
  streamAttempted?(): void;
  setRecording(recording: boolean): void;
  /** Re-checks the room (API, at `priority`) and answers whether recording should go on. */
  shouldContinue(priority?: ApiPriority): Promise<boolean>;
  /** Told about every file and the media progress on it (the danmaku recorder). */
  timeline?: MediaTimeline;
  /** The service will not let us record this live room (paid, password, guard-only, DRM only): the session ends without retrying. */
  unavailable?(reason: string): void;
  /** A file is about to open (before FileOpening): throws when the room's lifecycle forbids it (a stop began). */
  fileOpening?(cause: 'first-file' | 'new-file'): void;
  /** The service answered a call made with a login cookie as it answers a guest (`why`, without the cookie). */
  loginIgnored?(why: string): void;
}

/** How often a session waiting for disk space looks again. */
const DISK_POLL_MS = 2000;

/** A connection shorter than this that ends is treated as a failure and retried after TimingStreamRetry. */
const HEALTHY_CONNECTION_MS = 5000;

export class RecordSession {
  readonly id = randomUUID();
  private capture: Capture | HlsCapture | null = null;
  private readonly protocol: ProtocolChoice;
  private stopped = false;
  private wake: (() => void) | null = null;
  private qn = 0;
  private host = '';
  /** A stream the parser cannot read (a video codec other than AVC/HEVC): the rest of the session is raw. */
  private rawFallback = false;
  /** The current connection was ended by reconnect(): not a failure, not the end of the session. */
  private reconnecting = false;
  /** Labels, origin checks and switches (RecordingPreferOrigin). */
  readonly origin: SessionOrigin;
  /** A capture whose connection dropped and whose file waits for the next one (RecordFillGapsFromHls). */
  private held: FillingCapture | null = null;
  /** What the held file records (origin, re-encode, …): a connection of another kind starts a new file instead. */
  private heldKind: string | null = null;
  /** The same for HLS: the writer whose file the next connection of that format continues. */
  private heldHls: { writer: HlsCapture['writer']; format: string } | null = null;
  /** The play info the stream was chosen from, and the stream: the fill's HLS comes from them without an API call. */
  private readonly playInfo = new PlayInfoMemo();
  private streamUrl: StreamUrl | null = null;
  /** Connections (or attempts) in a row that failed or lasted under HEALTHY_CONNECTION_MS. */
  private failedInARow = 0;

  constructor(private readonly room: SessionHost) {
    this.protocol = new ProtocolChoice(room.outbox);
    this.origin = new SessionOrigin(room);
  }

  /** PLAYURL_RELOAD / master_qn_strategy_chg: the offer may have changed; look for the origin soon. */
  originHint(reason: string): void {
    this.origin.hint(reason);
  }

  /** stop() was called: the session is ending (it may still be closing its file). */
  get stopping(): boolean {
    return this.stopped;
  }

  stop(): void {
    this.stopped = true;
    if (this.unheard) return;
    const cancels = [...this.cancels];
    this.cancels.clear();
    for (const cancel of cancels) cancel();
    this.origin.stop();
    this.capture?.stop();
    this.wake?.();
  }

  /** testHangStop (test builds only): a stop marks the session ending but reaches nothing it waits on or runs. */
  stopUnheard(): void {
    this.unheard = true;
  }
  private unheard = false;

  split(): void {
    (this.capture ?? this.held)?.split();
  }

  /** Ends the current connection and opens a new one at once, with a freshly resolved stream URL (PLAYURL_RELOAD). */
  reconnect(): void {
    if (this.stopped || !this.capture) return;
    this.reconnecting = true;
    this.capture.stop();
  }

  /** Synchronously closes the open file (the worker is going down). */
  emergencyClose(): void {
    this.capture?.closeFiles();
    this.held?.closeFiles();
    this.heldHls?.writer.close();
  }

  async run(): Promise<void> {
    const { outbox, stats } = this.room;
    const files = new RecordingFiles({
      sessionId: this.id, workDir: this.room.workDir, template: this.room.settings().FileNameRecordTemplate,
      writeMetadata: this.room.settings().FlvWriteMetadata, snapshot: () => this.room.snapshot(), uid: () => this.room.uid(),
      roomInfoJson: () => this.room.roomInfoJson(), qn: () => this.qn, streamHost: () => this.host,
      timeline: this.room.timeline,
      beforeNewFile: () => {
        if (this.stopped) throw new LiverecError('SESSION_ENDING', 'no new file once the session is ending');
        disk.assertRoom();
        this.room.fileOpening?.(opened++ === 0 ? 'first-file' : 'new-file');
      },
    }, outbox);
    const disk = new DiskGuard(this.room.workDir, () => this.room.settings().MinFreeSpaceMB);
    let started = false;
    let opened = 0;
    try {
      while (!this.stopped) {
        if (!disk.hasRoom()) {
          await this.waitForDisk(disk, started);
          continue;
        }
        const settings = this.room.settings();
        let download: CaptureInput | null = null;
        let url: StreamUrl | null = null;
        let provenance: StreamProvenance | null = null;
        const handedOver = this.origin.take();
        try {
          if (handedOver) {
            ({ url, provenance } = handedOver);
            download = handedOver.input;
          } else {
            ({ url, provenance } = await this.cancellable(resolveClassifiedStream(
              this.playInfo.client(this.api()), this.room.snapshot().RoomId, this.protocol.formats(settings.RecordingProtocol), settings.RecordingPreferOrigin,
              undefined, { uid: this.room.uid() },
            )));
          }
          if (url.currentQn !== url.qn) outbox.log('warn', 'service serves another quality than requested', { qn: url.qn, currentQn: url.currentQn });
          if (url.decision?.capped === true && cookieHasLogin(this.room.api().options.cookie)) this.room.loginIgnored?.('play info applied the guest cap although a login cookie was sent');
          // A file holds one kind of stream: an origin file is not continued with a re-encode (or the reverse).
          if (this.held && (handedOver || this.heldKind !== (provenance?.kind ?? null))) this.releaseHeld();
          this.qn = url.qn;
          this.streamUrl = url;
          this.origin.label(files, provenance);
          files.setCodec(url.codec, 'url');
          this.protocol.using(url.format);
          this.room.streamAttempted?.();
          if (url.format === 'flv' && !download) {
            download = await this.cancellable(openStream(url.url, { ...this.room.api().options }), (late) => late.stop());
          }
        } catch (err) {
          this.room.streamAttempted?.();
          if (this.stopped) break;
          const code = errorCode(err);
          if (url) this.protocol.failed(url.format);
          // A call the shared pause refused was never sent: it says nothing about this room's stream, and counting it
          // would demote the start behind every room's checks once the pause ends (soak seed 5151 run 45: 49 s).
          if (code !== BiliErrorCode.ApiPaused) this.failedInARow++;
          if (code === BiliErrorCode.RoomUnavailable || code === BiliErrorCode.ApiRoomEncrypted) {
            // The room actor logs the reason once and re-checks it each interval; no stream retries.
            this.room.unavailable?.((err as { unavailableReason?: string }).unavailableReason ?? 'password');
            break;
          }
          outbox.log('warn', `cannot start the stream: ${(err as Error).message}`, { code });
          await this.sleep(code === BiliErrorCode.NoMatchingQn ? settings.TimingStreamRetryNoQn * 1000 : settings.TimingStreamRetry);
          if (this.stopped || !(await this.continues())) break;
          continue;
        }
        if (this.stopped) {
          // stop() came while the stream was being resolved or opened (e.g. waiting for API budget): nothing is
          // read and no file opens; a held file is released in `finally`.
          download?.stop();
          break;
        }
        if (!started) {
          started = true;
          stats.reset();
          this.room.setRecording(true);
          outbox.state({ sessionGaps: [] });
          outbox.event({ EventType: 'SessionStarted', EventTimestamp: formatLocal(), EventData: { ...this.room.snapshot(), SessionId: this.id } });
        } else {
          stats.newConnection();
        }
        this.host = new URL(download?.url ?? url.url).host;
        const deps = { settings: () => this.room.settings(), files, stats, outbox };
        const hlsWriter = this.heldHls?.format === url.format ? this.heldHls.writer : undefined;
        if (!hlsWriter) this.releaseHeldHls();
        this.heldHls = null;
        const hls = url.format === 'flv' ? null : new HlsCapture({
          ...deps, stream: url, http: this.room.api().options, resume: this.protocol.resumeOf(url.format), writer: hlsWriter, holdOnFailure: settings.RecordFillGapsFromHls,
          // A session's first HLS connection reaches back to the stream's start whatever its age: the CDN's segments
          // cost no API call, and a stream a few seconds old has its first GOP just before the live edge (issue 48).
          reachBackSeconds: settings.RecordFillGapsFromHls && this.protocol.resumeOf(url.format).lastSeq === null ? settings.RecordGapFillMaxSeconds : 0,
        });
        // AV1 over FLV (Enhanced FLV `av01`) is kept as received: the repair pipeline reads AVC and HEVC only.
        const raw = settings.RecordMode === 1 || this.rawFallback || url.codec === 'av1';
        const capture = hls ?? (raw ? new RawCapture(deps)
          : this.held ?? (settings.RecordFillGapsFromHls ? this.fillingCapture(deps) : new StandardCapture(deps)));
        if (this.held && capture !== this.held) this.releaseHeld();
        this.held = null;
        this.capture = capture;
        if (this.stopped) capture.stop();
        if (capture instanceof StandardCapture) this.origin.started(capture, url, provenance, handedOver);
        const openedAt = download?.openedAt ?? Date.now();
        // The URL's `expires` passes in about an hour: renew the connection before, joined like any reconnect.
        const renewIn = renewDelayMs(download?.url ?? url.url);
        const renew = renewIn === null ? null : setTimeout(() => {
          outbox.log('info', 'the stream URL expires soon; resolving a fresh one', { code: 'STREAM_URL_RENEW' });
          if (capture instanceof StandardCapture) capture.renew();
          else this.reconnect();
        }, renewIn);
        const end = await (hls ? hls.run() : (capture as Capture).run(download!)).finally(() => renew && clearTimeout(renew));
        this.capture = null;
        if (this.origin.ended(end, this.stopped)) continue;
        if (capture instanceof FillingCapture && capture.holdingFiles) {
          this.held = capture;
          this.heldKind = provenance?.kind ?? null;
        }
        if (hls?.holding) this.heldHls = { writer: hls.writer, format: url.format };
        const lasted = Date.now() - openedAt;
        if (this.reconnecting && !this.stopped) {
          this.reconnecting = false;
          outbox.log('info', 'stream connection ended for a reconnect', { bytes: end.bytes, lastedMs: lasted });
          continue;
        }
        // A healthy connection that dropped while its file waits for the next one is not a failing protocol: the
        // reconnect continues the file, where a switch of protocol would start another.
        const continues = this.held !== null || this.heldHls !== null;
        // A connection a stop or a remove ended says nothing of the protocol (it was logged as a failing one).
        const byStop = this.stopped || end.reason === 'stopped';
        if (!byStop) {
          if (lasted < HEALTHY_CONNECTION_MS || (end.reason === 'error' && !continues)) this.protocol.failed(url.format);
          else this.protocol.succeeded(url.format);
          this.failedInARow = lasted < HEALTHY_CONNECTION_MS ? this.failedInARow + 1 : 0;
        }
        outbox.log(end.reason === 'error' ? 'warn' : 'info', `stream connection ended: ${end.reason}`, {
          code: end.error ? errorCode(end.error) : undefined, error: end.error ? String((end.error as Error).message ?? end.error) : undefined, bytes: end.bytes, lastedMs: lasted,
        });
        if (this.stopped || end.reason === 'stopped') break;
        if (isDiskFull(end.error)) {
          this.releaseHeld();
          this.releaseHeldHls();
          if (errorCode(end.error) !== 'DISK_FULL') disk.noteFull(); // ENOSPC: wait for more space than now
          continue;
        }
        if (errorCode(end.error) === 'UNSUPPORTED_CODEC' && !this.rawFallback) {
          // brec 2.13 did the same for non-H.264 streams: keep the bytes rather than stop recording.
          this.rawFallback = true;
          outbox.log('warn', 'the stream carries a video codec the repair cannot read; recording the rest of this session as RawData');
          continue;
        }
        if (!(await this.continues())) break;
        if (lasted < HEALTHY_CONNECTION_MS) await this.sleep(settings.TimingStreamRetry);
      }
    } finally {
      this.releaseHeld();
      this.releaseHeldHls();
      if (started) {
        this.room.setRecording(false);
        this.origin.stop();
        outbox.state({ recordingCodec: '', recordingSource: null, sessionGaps: [] });
        stats.reset();
        outbox.stats(stats.recording, stats.io); // flushed ahead of the event: readers see the reset first
        outbox.event({ EventType: 'SessionEnded', EventTimestamp: formatLocal(), EventData: { ...this.room.snapshot(), SessionId: this.id } });
      }
    }
  }

  /** The capture the fill machinery kept: one for this session's FLV connections, with the room's HLS as the fill source. */
  private fillingCapture(deps: ConstructorParameters<typeof StandardCapture>[0]): FillingCapture {
    const api = this.room.api();
    return new FillingCapture({
      ...deps,
      hlsUrls: async (signal) => (this.streamUrl && this.playInfo.hlsUrls(this.streamUrl))
        ?? (await resolveStreamUrl(this.api(), this.room.snapshot().RoomId, signal, ['fmp4'])).urls,
      streamAgeMs: () => this.streamAgeMs(),
      http: { streamConnectTimeoutMs: api.options.streamConnectTimeoutMs, watchdogTimeoutMs: api.options.watchdogTimeoutMs, userAgent: api.options.userAgent, maxRedirects: api.options.maxRedirects },
    });
  }

  private releaseHeldHls(): void {
    const held = this.heldHls;
    this.heldHls = null;
    held?.writer.close();
  }

  /**
   * The budget priority of this session's calls: a start or a reconnect goes first, but a stream that failed on the last
   * two connections in a row waits behind every other room's calls (issue 48: a room failing in a loop cannot delay
   * another room's start, nor starve detection).
   */
  private priority(): ApiPriority {
    return this.failedInARow >= 2 ? 'info' : 'start';
  }

  private api(): BilibiliApiClient {
    return this.room.api().withPriority(this.priority());
  }

  /**
   * How long the room has been live: the play info's `live_time`, else the detector's, else the room info's
   * `live_start_time`; null when none is known (a late start then reaches back anyway).
   */
  private streamAgeMs(): number | null {
    const info = (this.room.roomInfoJson() as { room_info?: { live_start_time?: unknown } } | null)?.room_info?.live_start_time;
    const start = this.playInfo.liveTime() || this.room.liveStartTime?.() || (typeof info === 'number' ? info : 0);
    return start > 0 ? Date.now() - start * 1000 : null;
  }

  /** No next connection for the held file: it is closed. */
  private releaseHeld(): void {
    const held = this.held;
    this.held = null;
    held?.release();
  }

  /**
   * One disk-full episode: a log line and the room state when it starts and ends, no connection and no file
   * in between (free space is checked every DISK_POLL_MS). Returns when there is room again or on stop().
   */
  private async waitForDisk(disk: DiskGuard, started: boolean): Promise<void> {
    const { outbox } = this.room;
    const free = freeBytes(this.room.workDir);
    outbox.log('warn', 'not recording: the disk is full or below MinFreeSpaceMB; waiting for free space', {
      code: 'DISK_SPACE_LOW', freeMiB: free === null ? null : Math.floor(free / 1024 / 1024), minFreeSpaceMB: this.room.settings().MinFreeSpaceMB,
    });
    outbox.state({ waitingForDiskSpace: true });
    if (started) this.room.setRecording(false);
    while (!this.stopped && !disk.hasRoom()) await this.sleep(DISK_POLL_MS);
    outbox.state({ waitingForDiskSpace: false });
    if (this.stopped) return;
    if (started) this.room.setRecording(true);
    outbox.log('info', 'free space is back; recording resumes', { code: 'DISK_SPACE_OK' });
  }

  /**
   * A step of the start (an API call waiting for budget, a connection) that `stop()` cancels: the session ends at
   * once instead of waiting for it; what the step yields later is dropped (`discard`).
   */
  private cancellable<T>(step: Promise<T>, discard?: (late: T) => void): Promise<T> {
    if (this.stopped) {
      step.then((late) => discard?.(late), () => undefined);
      return Promise.reject(new LiverecError('SESSION_ENDING', 'the session is ending'));
    }
    return new Promise<T>((resolve, reject) => {
      const cancel = (): void => reject(new LiverecError('SESSION_ENDING', 'the session is ending'));
      this.cancels.add(cancel);
      step.then((value) => {
        if (!this.cancels.delete(cancel)) discard?.(value);
        else resolve(value);
      }, (err: unknown) => {
        this.cancels.delete(cancel);
        reject(err);
      });
    });
  }

  private readonly cancels = new Set<() => void>();

  /**
   * Re-checks the room before another connection. The check may wait long for its API call (budget, risk pause, a
   * slow service) while a dropped connection's file is held: a stop cancels it, so the session ends and closes that
   * file at once instead of after the call (soak seed 6363 run 36: past the shutdown's grace, no FileClosed).
   */
  private async continues(): Promise<boolean> {
    try {
      return await this.cancellable(this.room.shouldContinue(this.priority()));
    } catch (err) {
      if (this.stopped && errorCode(err) === 'SESSION_ENDING') return false;
      throw err;
    }
  }

  /** A wait that `stop()` cuts short. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
