// A session's choice of stream format: RecordingProtocol in order, formats that keep failing passed over, HLS resume state.
import { checkRecordingProtocol, parseRecordingProtocol, type StreamFormat, tokenOf } from '../../bilibili/recording-protocol.js';
import type { HlsResume } from '../../hls/live-client.js';
import type { ActorOutbox } from '../actor-outbox.js';

/** Failures in a row after which a format is passed over for the next one of RecordingProtocol (this session). */
const FALLBACK_AFTER = 3;

export class ProtocolChoice {
  private readonly failures = new Map<StreamFormat, number>();
  private readonly resume = new Map<StreamFormat, HlsResume>();
  private last: StreamFormat | null = null;
  private warned = false;

  constructor(private readonly outbox: Pick<ActorOutbox, 'log'>) {}

  /** RecordingProtocol in order, without the formats that failed FALLBACK_AFTER times in a row (all of them when every one did). */
  formats(setting: string | null): StreamFormat[] {
    const problem = checkRecordingProtocol(setting ?? '');
    if (problem && !this.warned) this.outbox.log('warn', `RecordingProtocol: ${problem}; ignoring it`, { code: 'CONFIG_RECORDING_PROTOCOL' });
    this.warned ||= problem !== null;
    const all = parseRecordingProtocol(setting);
    const usable = all.filter((f) => (this.failures.get(f) ?? 0) < FALLBACK_AFTER);
    if (usable.length > 0) return usable;
    this.failures.clear();
    return all;
  }

  /** The format about to be recorded (logged when it changes). */
  using(format: StreamFormat): void {
    if (format === this.last) return;
    this.outbox.log('info', `recording over ${tokenOf(format)}`, { protocol: tokenOf(format), previous: this.last && tokenOf(this.last) });
    this.last = format;
  }

  failed(format: StreamFormat): void {
    const n = (this.failures.get(format) ?? 0) + 1;
    this.failures.set(format, n);
    if (n === FALLBACK_AFTER) this.outbox.log('warn', `${tokenOf(format)} failed ${n} times in a row; trying the next protocol of RecordingProtocol`, { protocol: tokenOf(format) });
  }

  succeeded(format: StreamFormat): void {
    this.failures.delete(format);
  }

  /** The media sequence state an HLS format keeps across the session's reconnects. */
  resumeOf(format: StreamFormat): HlsResume {
    let r = this.resume.get(format);
    if (!r) this.resume.set(format, (r = { lastSeq: null }));
    return r;
  }
}
