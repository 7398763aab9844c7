// One recording session: connect, capture, reconnect with a new file while the room stays live; SessionStarted/Ended.
import { randomUUID } from 'node:crypto';
import type { BilibiliApiClient } from '../bilibili/api-client.js';
import { BiliErrorCode } from '../bilibili/errors.js';
import { openStream } from '../bilibili/stream-download.js';
import { resolveStreamUrl } from '../bilibili/stream-url.js';
import type { RoomSettings } from '../config/fields.js';
import { errorCode } from '../errors.js';
import type { MediaTimeline } from '../danmaku/media-clock.js';
import type { RoomEventSnapshot } from '../events/types.js';
import { formatLocal } from '../time.js';
import type { ActorOutbox } from './actor-outbox.js';
import { RawCapture } from './capture-raw.js';
import { type Capture, StandardCapture } from './capture-standard.js';
import { RecordingFiles } from './recording-files.js';
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
  setRecording(recording: boolean): void;
  /** Re-checks the room (API) and answers whether recording should go on. */
  shouldContinue(): Promise<boolean>;
  /** The stream is not H.264: stop recording until the stream ends (brec calls StopRecord). */
  unsupportedCodec(): void;
  /** Told about every file and the media progress on it (the danmaku recorder). */
  timeline?: MediaTimeline;
}

/** A connection shorter than this that ends is treated as a failure and retried after TimingStreamRetry. */
const HEALTHY_CONNECTION_MS = 5000;

export class RecordSession {
  readonly id = randomUUID();
  private capture: Capture | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;
  private qn = 0;
  private host = '';

  constructor(private readonly room: SessionHost) {}

  stop(): void {
    this.stopped = true;
    this.capture?.stop();
    this.wake?.();
  }

  split(): void {
    this.capture?.split();
  }

  /** Synchronously closes the open file (the worker is going down). */
  emergencyClose(): void {
    this.capture?.closeFiles();
  }

  async run(): Promise<void> {
    const { outbox, stats } = this.room;
    const files = new RecordingFiles({
      sessionId: this.id, workDir: this.room.workDir, template: this.room.settings().FileNameRecordTemplate,
      writeMetadata: this.room.settings().FlvWriteMetadata, snapshot: () => this.room.snapshot(), uid: () => this.room.uid(),
      roomInfoJson: () => this.room.roomInfoJson(), qn: () => this.qn, streamHost: () => this.host,
      timeline: this.room.timeline,
    }, outbox);
    let started = false;
    try {
      while (!this.stopped) {
        const settings = this.room.settings();
        let download;
        try {
          const url = await resolveStreamUrl(this.room.api(), this.room.snapshot().RoomId);
          if (url.currentQn !== url.qn) outbox.log('warn', 'service serves another quality than requested', { qn: url.qn, currentQn: url.currentQn });
          this.qn = url.qn;
          download = await openStream(url.url, { ...this.room.api().options });
        } catch (err) {
          if (this.stopped) break;
          const code = errorCode(err);
          outbox.log('warn', `cannot start the stream: ${(err as Error).message}`, { code });
          if (code === BiliErrorCode.ApiRoomEncrypted) break;
          await this.sleep(code === BiliErrorCode.NoMatchingQn ? settings.TimingStreamRetryNoQn * 1000 : settings.TimingStreamRetry);
          if (this.stopped || !(await this.room.shouldContinue())) break;
          continue;
        }
        if (!started) {
          started = true;
          stats.reset();
          this.room.setRecording(true);
          outbox.event({ EventType: 'SessionStarted', EventTimestamp: formatLocal(), EventData: { ...this.room.snapshot(), SessionId: this.id } });
        } else {
          stats.newConnection();
        }
        this.host = new URL(download.url).host;
        const capture = settings.RecordMode === 1 ? new RawCapture({ settings: () => this.room.settings(), files, stats, outbox })
          : new StandardCapture({ settings: () => this.room.settings(), files, stats, outbox });
        this.capture = capture;
        if (this.stopped) capture.stop();
        const end = await capture.run(download);
        this.capture = null;
        const lasted = Date.now() - download.openedAt;
        outbox.log(end.reason === 'error' ? 'warn' : 'info', `stream connection ended: ${end.reason}`, {
          code: end.error ? errorCode(end.error) : undefined, error: end.error ? String((end.error as Error).message ?? end.error) : undefined, bytes: end.bytes, lastedMs: lasted,
        });
        if (this.stopped || end.reason === 'stopped') break;
        if (errorCode(end.error) === 'UNSUPPORTED_CODEC') {
          this.room.unsupportedCodec();
          break;
        }
        if (!(await this.room.shouldContinue())) break;
        if (lasted < HEALTHY_CONNECTION_MS) await this.sleep(settings.TimingStreamRetry);
      }
    } finally {
      if (started) {
        this.room.setRecording(false);
        stats.reset();
        outbox.stats(stats.recording, stats.io); // flushed ahead of the event: readers see the reset first
        outbox.event({ EventType: 'SessionEnded', EventTimestamp: formatLocal(), EventData: { ...this.room.snapshot(), SessionId: this.id } });
      }
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
