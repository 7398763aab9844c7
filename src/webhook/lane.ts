// One lane per receiver URL: a bounded window of deliveries in memory, bounded attempts in flight, the rest on disk.
import { redactUrl } from './redact-url.js';
import type { Logger } from '../log/logger.js';
import { deliveryKey, type Delivery } from './delivery.js';
import type { JournalFile } from './journal-file.js';
import { decodeRecord, type FinalState, type MsgRecord } from './journal-records.js';
import type { RecentDeliveries } from './recent-deliveries.js';
import { MAX_ATTEMPTS, nextAttemptAt, retryDelayMs } from './retry-policy.js';
import { sendOnce, type AttemptOutcome } from './sender.js';

export interface LaneContext {
  journal: JournalFile;
  recent: RecentDeliveries;
  log: Logger;
  signal(): AbortSignal;
  isClosed(): boolean;
  timeoutMs(): number;
  maxInFlight: number;
  windowSize: number;
  /** Called whenever deliveries were loaded into memory (for the high-water mark). */
  noteLoaded(): void;
}

const MSG_PREFIX = '{"r":"msg"';

export class Lane {
  private readonly window: Delivery[] = [];
  private readonly keys = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private inFlight = 0;
  /** Journal offset of the first message line whose target for this URL is not loaded yet; null = none on disk. */
  cursor: number | null = null;

  constructor(
    readonly url: string,
    private readonly ctx: LaneContext,
  ) {}

  get loaded(): number {
    return this.window.length;
  }
  get active(): number {
    return this.inFlight;
  }
  get idle(): boolean {
    return this.window.length === 0 && this.cursor === null && this.inFlight === 0;
  }
  /** Something could still be sent now: an attempt in flight, a delivery due, or deliveries spilled to the journal. */
  get busy(): boolean {
    return this.inFlight > 0 || this.cursor !== null || this.window.some((d) => d.state !== 'waiting' || d.dueAt <= Date.now());
  }
  hasLive(key: string): boolean {
    return this.keys.has(key);
  }

  /** A new delivery journaled at `offset` (null: journaling failed, so it can only live in memory). */
  offer(d: Delivery, offset: number | null): void {
    // Once anything of this lane is on disk, newer deliveries queue behind it there, keeping FIFO order.
    if (offset !== null && (this.cursor !== null || this.window.length >= this.ctx.windowSize)) {
      if (this.cursor === null) this.cursor = offset;
      return;
    }
    this.add(d);
  }

  private add(d: Delivery): void {
    this.window.push(d);
    this.keys.add(d.key);
    this.ctx.noteLoaded();
  }

  /** Reads spilled deliveries back from the journal until the window is full again. */
  refill(): void {
    if (this.cursor === null || this.ctx.isClosed()) return;
    const room = this.ctx.windowSize - this.window.length;
    if (room <= 0) return;
    let added = 0;
    const needle = JSON.stringify(this.url);
    const stop = this.ctx.journal.scan(this.cursor, (line) => {
      if (!line.startsWith(MSG_PREFIX) || !line.includes(needle)) return;
      const rec = decodeRecord(line);
      if (!rec || rec.r !== 'msg') return;
      const mine = rec.u.flatMap((u, i) => (u === this.url && rec.s?.[i] !== null && !this.keys.has(deliveryKey(rec.m, i)) ? [i] : []));
      if (mine.length === 0) return;
      if (added > 0 && added + mine.length > room) return false;
      for (const i of mine) this.add(this.fromRecord(rec, i));
      added += mine.length;
    });
    this.cursor = stop >= this.ctx.journal.size ? null : stop;
    if (added) this.ctx.log.debug({ url: redactUrl(this.url), loaded: added, spilled: this.cursor !== null }, 'webhook deliveries read back from journal');
  }

  private fromRecord(rec: MsgRecord, i: number): Delivery {
    const st = rec.s?.[i] ?? { n: 0 };
    return {
      key: deliveryKey(rec.m, i),
      m: rec.m,
      v: rec.v,
      t: rec.t,
      i,
      url: this.url,
      body: rec.b,
      createdAt: rec.at,
      attempts: st.n,
      dueAt: nextAttemptAt(st.n, st.last),
      state: st.n > 0 ? 'waiting' : 'ready',
      lastStatus: st.st,
      lastError: st.err,
    };
  }

  /** Starts every due delivery while slots are free, then sleeps until the next one is due. */
  pump(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.ctx.isClosed()) return;
    const now = Date.now();
    let next = Infinity;
    for (const d of this.window) {
      if (d.state === 'in-flight') continue;
      if (d.dueAt > now) next = Math.min(next, d.dueAt);
      else if (this.inFlight < this.ctx.maxInFlight) this.attempt(d);
    }
    if (next !== Infinity) {
      this.timer = setTimeout(() => this.pump(), next - now);
      this.timer.unref();
    }
  }

  private attempt(d: Delivery): void {
    d.attempts++;
    d.state = 'in-flight';
    this.inFlight++;
    const now = Date.now();
    try {
      this.ctx.journal.append({ r: 'try', m: d.m, i: d.i, n: d.attempts, at: now });
    } catch (err) {
      this.ctx.log.error({ err, eventId: d.m, url: redactUrl(d.url) }, 'webhook journal write failed; sending anyway');
    }
    this.ctx.recent.update(deliveryInfo(d), { attempts: d.attempts, state: 'sending', nextAttemptAt: null }, now);
    this.ctx.log.debug({ eventId: d.m, eventType: d.t, version: d.v, url: redactUrl(d.url), attempt: d.attempts }, 'webhook attempt');
    const p = sendOnce(d.url, d.body, this.ctx.timeoutMs(), this.ctx.signal()).then((outcome) => this.settle(d, outcome));
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
  }

  private settle(d: Delivery, outcome: AttemptOutcome): void {
    this.inFlight--;
    // A cut attempt writes nothing: its `try` line already counts it, and the next start resumes after it.
    if (this.ctx.isClosed() || (!outcome.ok && outcome.aborted)) return;
    const now = Date.now();
    const fin: FinalState | undefined = outcome.ok ? 'delivered' : d.attempts >= MAX_ATTEMPTS ? 'given-up' : undefined;
    const err = outcome.ok ? undefined : outcome.error;
    d.lastStatus = outcome.status;
    d.lastError = err;
    try {
      this.ctx.journal.append({ r: 'res', m: d.m, i: d.i, n: d.attempts, ok: outcome.ok, at: now, st: outcome.status, err, fin });
    } catch (e) {
      this.ctx.log.error({ err: e, eventId: d.m, url: redactUrl(d.url) }, 'webhook journal write failed');
    }
    const fields = { eventId: d.m, eventType: d.t, version: d.v, url: redactUrl(d.url), attempts: d.attempts, status: outcome.status };
    const base = { attempts: d.attempts, lastStatus: outcome.status ?? null, lastError: err ?? null, lastErrorCode: outcome.ok ? null : outcome.code };
    if (fin) {
      this.remove(d);
      this.ctx.recent.update(deliveryInfo(d), { ...base, state: fin, finishedAt: now, nextAttemptAt: null }, now);
      if (fin === 'delivered') this.ctx.log.info(fields, 'webhook delivered');
      else this.ctx.log.error({ ...fields, err, code: outcome.ok ? undefined : outcome.code }, 'webhook given up after 3 attempts');
      if (this.cursor !== null && this.window.length <= this.ctx.windowSize / 2) this.refill();
    } else {
      d.state = 'waiting';
      d.dueAt = now + retryDelayMs(d.attempts);
      this.ctx.recent.update(deliveryInfo(d), { ...base, state: 'retrying', nextAttemptAt: d.dueAt }, now);
      this.ctx.log.warn({ ...fields, err, code: outcome.ok ? undefined : outcome.code, retryInMs: retryDelayMs(d.attempts) }, 'webhook attempt failed; will retry');
    }
    this.pump();
  }

  private remove(d: Delivery): void {
    const idx = this.window.indexOf(d);
    if (idx !== -1) this.window.splice(idx, 1);
    this.keys.delete(d.key);
  }

  /** Stops timers and waits for in-flight attempts to settle (the caller aborts them first). */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.running]);
  }
}

export const deliveryInfo = (d: Delivery) => ({ key: d.key, eventId: d.m, eventType: d.t, version: d.v, url: d.url, createdAt: d.createdAt });
