// A session's side of RecordingPreferOrigin: labels what it records, looks for the origin, and holds the connection that takes over.
import { probeOrigin } from '../bilibili/origin-offer.js';
import { describeProvenance, type StreamProvenance } from '../bilibili/provenance.js';
import { openStream } from '../bilibili/stream-download.js';
import type { StreamUrl } from '../bilibili/stream-url.js';
import { recordingSourceOf } from '../events/source.js';
import { captureLimits } from '../flv/group-limits.js';
import type { CaptureEnd, StandardCapture } from './capture-standard.js';
import { OriginWatch, type SwitchReady } from './origin-watch.js';
import type { SessionHost } from './record-session.js';
import type { RecordingFiles } from './recording-files.js';

export class SessionOrigin {
  private watch: OriginWatch | null = null;
  /** An origin connection that took over at a GOP boundary: the next capture of the session reads it. */
  private next: SwitchReady | null = null;
  /** Origin switches done in this session. */
  switches = 0;

  constructor(private readonly room: SessionHost) {}

  /** The connection ready to take over (once), or null. */
  take(): SwitchReady | null {
    const next = this.next;
    this.next = null;
    return next;
  }

  /** PLAYURL_RELOAD / master_qn_strategy_chg: the offer may have changed; look soon. */
  hint(reason: string): void {
    this.watch?.hint(reason);
  }

  /** Tells files, room state and log what the session records now. */
  label(files: RecordingFiles, provenance: StreamProvenance): void {
    const source = recordingSourceOf(provenance);
    files.setSource(source);
    this.room.outbox.state({ recordingSource: source });
    this.room.outbox.log('info', `recording source: ${describeProvenance(provenance)}`, { source: provenance.kind });
  }

  /**
   * A new FLV capture starts: it drops the GOPs a handed-over-from connection wrote, and, when it records a re-encode or
   * transcode with RecordingPreferOrigin, the origin is looked for every TimingOriginCheckInterval and on hints.
   */
  started(capture: StandardCapture, url: StreamUrl, provenance: StreamProvenance, handedOver: SwitchReady | null): void {
    if (handedOver) capture.seedKeptGroups(handedOver.kept);
    const settings = this.room.settings();
    if (provenance.kind !== 'reencode' && provenance.kind !== 'transcode') return;
    if (!settings.RecordingPreferOrigin || url.format !== 'flv' || url.qn < 10000) return;
    const api = this.room.api();
    const roomId = this.room.snapshot().RoomId;
    const limits = captureLimits(settings.RecordMemoryBudgetMB);
    this.watch = new OriginWatch({
      intervalMs: () => Math.max(1, this.room.settings().TimingOriginCheckInterval) * 1000,
      probe: () => probeOrigin(this.room.api().withPriority('origin'), roomId, 'flv'),
      open: (u) => openStream(u, { ...api.options }),
      outbox: this.room.outbox,
      maxBufferBytes: limits.budgetBytes,
      groupLimits: limits.group,
    }, capture, (ready) => {
      this.next = ready;
    });
    this.watch.start();
  }

  /** The capture ended: stop looking. True when it ended by handing off to a ready origin connection. */
  ended(end: CaptureEnd, stopped: boolean): boolean {
    this.watch?.stop();
    this.watch = null;
    const ready = this.next;
    if (end.reason !== 'handoff' || !ready || stopped) return false;
    this.switches++;
    this.room.outbox.log('info', 'switched to the origin at a GOP boundary; the next file of this session records it', {
      sharedGop: ready.shared, evidence: ready.provenance.evidence,
    });
    return true;
  }

  /** The session is over: nothing more is looked for, and a connection that was to take over is closed. */
  stop(): void {
    this.watch?.stop();
    this.watch = null;
    this.take()?.input.stop();
  }
}
