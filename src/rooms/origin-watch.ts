// While a session records a re-encode or transcode: look for the origin every TimingOriginCheckInterval and on hints, and prepare the switch.
import type { ClassifiedStream } from '../bilibili/origin-offer.js';
import type { StreamDownload } from '../bilibili/stream-download.js';
import type { GroupLimits } from '../flv/group-limits.js';
import { errorCode } from '../errors.js';
import type { ActorOutbox } from './actor-outbox.js';
import { type HandOffResult, type HandOffSource, standby } from './origin-switch.js';

/** A danmaku hint never brings a check closer than this to the previous one (ms), nor closer than the interval allows. */
export const HINT_MIN_GAP_MS = 10_000;
/** How long the two connections may overlap without a shared GOP before the old one is cut at its last whole GOP. */
const MATCH_TIMEOUT_MS = 15_000;

export interface OriginWatchDeps {
  intervalMs(): number;
  /** One play-info call: the origin when offered now. */
  probe(): Promise<ClassifiedStream | null>;
  open(url: string): Promise<StreamDownload>;
  outbox: ActorOutbox;
  maxBufferBytes: number;
  groupLimits?: GroupLimits;
}

export type SwitchReady = HandOffResult & ClassifiedStream;

export class OriginWatch {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private stopped = false;
  private lastCheck: number;
  /** Play-info calls made by this watch (tests and logs). */
  checks = 0;

  constructor(private readonly deps: OriginWatchDeps, private readonly capture: HandOffSource, private readonly onReady: (ready: SwitchReady) => void, startedAt = Date.now()) {
    this.lastCheck = startedAt;
  }

  start(): void {
    this.schedule(this.deps.intervalMs());
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** PLAYURL_RELOAD / master_qn_strategy_chg: look now, or as soon as the minimum gap since the last look allows. */
  hint(reason: string): void {
    if (this.stopped || this.busy) return;
    const gap = Math.min(this.deps.intervalMs(), HINT_MIN_GAP_MS);
    const wait = Math.max(0, this.lastCheck + gap - Date.now());
    this.deps.outbox.log('debug', `${reason}: looking for the origin${wait > 0 ? ` in ${wait} ms` : ''}`);
    this.schedule(wait);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.check(), ms);
  }

  private async check(): Promise<void> {
    if (this.stopped || this.busy) return;
    this.busy = true;
    this.timer = null;
    this.lastCheck = Date.now();
    this.checks++;
    const { outbox } = this.deps;
    try {
      const found = await this.deps.probe();
      if (!found || this.stopped) return;
      outbox.log('info', 'the origin is offered; opening it next to the current connection', { evidence: found.provenance.evidence });
      const download = await this.deps.open(found.url.url);
      if (this.stopped) return download.stop();
      const result = await standby(download, this.capture, {
        matchTimeoutMs: MATCH_TIMEOUT_MS, maxBufferBytes: this.deps.maxBufferBytes, groupLimits: this.deps.groupLimits,
      });
      if (result && this.stopped) {
        result.input.stop(); // the session moved on meanwhile (stopped, or its connection ended)
        return;
      }
      if (!result) {
        outbox.log('warn', 'the origin connection ended before the switch; recording goes on where it was', { code: 'ORIGIN_SWITCH_FAILED' });
        return;
      }
      this.stop();
      this.onReady({ ...result, ...found });
    } catch (err) {
      if (!this.stopped) outbox.log('warn', `looking for the origin: ${(err as Error).message}`, { code: errorCode(err) });
    } finally {
      this.busy = false;
      if (!this.stopped) this.schedule(this.deps.intervalMs());
    }
  }
}
