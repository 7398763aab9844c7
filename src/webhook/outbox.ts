// The webhook outbox: journals every event, then delivers it to every configured URL with brec's retry rule, surviving restarts.
import { redactUrl } from './redact-url.js';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { EventBus } from '../events/bus.js';
import { EVENT_TYPES, type EventType, type RecorderEvent } from '../events/types.js';
import { logger as rootLogger, type Logger } from '../log/logger.js';
import type { WebhookDelivery } from './deliveries-schema.js';
import { deliveryKey, type Delivery } from './delivery.js';
import { compactJournal, type CompactResult } from './journal-compact.js';
import { JournalFile } from './journal-file.js';
import { JournalLock } from './journal-lock.js';
import { Lane, type LaneContext } from './lane.js';
import { buildV1Payload } from './payload-v1.js';
import { buildV2Payload } from './payload-v2.js';
import { RecentDeliveries } from './recent-deliveries.js';
import { WebhookSettingsReader } from './settings.js';
import type { OutboxStats, WebhookOutboxOptions } from './outbox-options.js';
import { reportCompaction } from './compaction-report.js';
import { sendOnce, type AttemptOutcome } from './sender.js';

export type { OutboxStats, WebhookOutboxOptions } from './outbox-options.js';

export const JOURNAL_RELATIVE_PATH = join('.liverec', 'webhook-outbox.jsonl');

export class WebhookOutbox {
  readonly journalPath: string;
  private readonly journal: JournalFile;
  private readonly lock: JournalLock;
  private readonly log: Logger;
  private readonly settings: WebhookSettingsReader;
  private readonly recent: RecentDeliveries;
  private readonly lanes = new Map<string, Lane>();
  private readonly ctx: LaneContext;
  private readonly detachers = new Set<() => void>();
  private abort = new AbortController();
  private started = false;
  private closed = false;
  private timers: NodeJS.Timeout[] = [];
  private maxLoaded = 0;
  /** Bodies of the most recent messages, so a finished delivery can be replayed from the UI (bounded like `recent`). */
  private readonly bodies = new Map<string, string>();

  constructor(private readonly options: WebhookOutboxOptions) {
    this.journalPath = join(options.workDir, JOURNAL_RELATIVE_PATH);
    this.journal = new JournalFile(this.journalPath);
    this.lock = new JournalLock(`${this.journalPath}.lock`);
    this.log = options.logger ?? rootLogger().child({ component: 'webhook' });
    this.settings = new WebhookSettingsReader(options.getSettings, this.log, options.timeoutMs);
    this.recent = new RecentDeliveries(options.recentLimit ?? 200);
    this.ctx = {
      journal: this.journal,
      recent: this.recent,
      log: this.log,
      signal: () => this.abort.signal,
      isClosed: () => !this.started,
      timeoutMs: () => this.settings.read().timeoutMs,
      maxInFlight: Math.max(1, options.maxInFlightPerUrl ?? 4),
      windowSize: Math.max(1, options.windowPerUrl ?? 64),
      noteLoaded: () => {
        const loaded = this.loadedNow();
        if (loaded > this.maxLoaded) this.maxLoaded = loaded;
      },
    };
  }

  /** Subscribes to the recorder's bus; returns the unsubscribe function (close() also detaches). */
  attach(bus: EventBus): () => void {
    const off = bus.on((event) => this.publish(event));
    const detach = (): void => {
      off();
      this.detachers.delete(detach);
    };
    this.detachers.add(detach);
    return detach;
  }

  /**
   * Journals one event for every URL configured right now and starts sending. Returns the EventId,
   * or null when nothing is configured. While stopped, events are journaled and sent by the next start().
   */
  publish(event: RecorderEvent): string | null {
    if (!(EVENT_TYPES as readonly string[]).includes(event?.EventType)) {
      this.log.warn({ code: 'WEBHOOK_UNKNOWN_EVENT', eventType: (event as { EventType?: unknown })?.EventType }, 'not a lifecycle event; not sent');
      return null;
    }
    const s = this.settings.read();
    if (s.v1.length === 0 && s.v2.length === 0) return null;
    const eventId = randomUUID();
    if (s.v2.length) this.enqueue(2, event.EventType, eventId, JSON.stringify(buildV2Payload(event, eventId)), s.v2);
    if (s.v1.length) {
      const v1 = buildV1Payload(event, randomUUID());
      if (v1) this.enqueue(1, event.EventType, v1.EventRandomId, JSON.stringify(v1), s.v1);
    }
    return eventId;
  }

  private enqueue(v: 1 | 2, t: EventType, m: string, body: string, urls: string[]): void {
    const at = Date.now();
    let offset: number | null = null;
    const stopped = !this.started;
    try {
      if (stopped) this.journal.open();
      offset = this.journal.append({ r: 'msg', m, v, t, at, u: urls, b: body });
      if (stopped && this.closed && !this.journal.syncing) this.journal.close();
    } catch (err) {
      this.log.error({ err, eventId: m, eventType: t }, 'webhook journal write failed; this event is kept in memory only');
      if (stopped) return;
    }
    this.bodies.set(m, body);
    if (this.bodies.size > (this.options.recentLimit ?? 200)) this.bodies.delete(this.bodies.keys().next().value as string);
    this.log.debug({ eventId: m, eventType: t, version: v, urls: urls.map(redactUrl), body }, 'webhook event queued');
    if (stopped) return;
    urls.forEach((url, i) => {
      const d: Delivery = { key: deliveryKey(m, i), m, v, t, i, url, body, createdAt: at, attempts: 0, dueAt: 0, state: 'ready' };
      this.recent.update({ key: d.key, eventId: m, eventType: t, version: v, url, createdAt: at }, {}, at);
      const lane = this.lane(url);
      lane.offer(d, offset);
      lane.pump();
    });
  }

  private lane(url: string): Lane {
    let lane = this.lanes.get(url);
    if (!lane) this.lanes.set(url, (lane = new Lane(url, this.ctx)));
    return lane;
  }

  private loadedNow(): number {
    let n = 0;
    for (const lane of this.lanes.values()) n += lane.loaded;
    return n;
  }

  /** Loads the journal (compacting it), resumes every unfinished delivery with its remaining attempts, starts timers. */
  async start(): Promise<void> {
    if (this.started) return;
    await this.journal.settle();
    this.journal.open();
    let result: CompactResult;
    try {
      this.lock.acquire();
    } catch (err) {
      this.journal.close();
      throw err;
    }
    try {
      result = this.runCompaction(true);
    } catch (err) {
      // Most likely a full disk: start anyway (new events are still sent); what is pending stays in the journal,
      // untouched, and resumes at the next start that can compact it.
      this.log.error({ err, journal: this.journalPath }, 'webhook journal could not be compacted at start; pending deliveries resume at the next start');
      result = { kept: 0, dropped: 0, anomalies: 0, bytesBefore: this.journal.size, bytesAfter: this.journal.size, expired: [], urls: new Set(), cursors: [], setAside: null };
    }
    this.abort = new AbortController();
    this.closed = false;
    this.started = true;
    for (const url of result.urls) this.lane(url).cursor = 0;
    for (const lane of this.lanes.values()) {
      lane.refill();
      lane.pump();
    }
    this.log.info({ journal: this.journalPath, pending: result.kept, urls: result.urls.size }, 'webhook outbox started');
    const every = (ms: number, fn: () => void): void => {
      const t = setInterval(fn, ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.options.syncIntervalMs ?? 1000, () => {
      this.journal.syncInBackground().catch((err) => this.log.error({ err }, 'webhook journal sync failed'));
    });
    every(this.options.compactIntervalMs ?? 60_000, () => {
      if (!this.journal.syncing) this.compact();
    });
  }

  /** Compacts the journal now (also runs periodically and at start); returns what was kept and dropped. */
  compact(): CompactResult | null {
    if (!this.started || this.journal.syncing) return null;
    try {
      return this.runCompaction(false);
    } catch (err) {
      this.log.error({ err }, 'webhook journal compaction failed; will retry later');
      return null;
    }
  }

  private runCompaction(atStart: boolean): CompactResult {
    const lanes = [...this.lanes.values()];
    const cursors = lanes.map((l) => l.cursor ?? this.journal.size);
    const live = (m: string, i: number): boolean => lanes.some((l) => l.hasLive(deliveryKey(m, i)));
    const result = compactJournal(this.journal, cursors, live);
    lanes.forEach((lane, k) => {
      if (lane.cursor !== null) lane.cursor = result.cursors[k] >= this.journal.size ? null : result.cursors[k];
      if (lane.idle) this.lanes.delete(lane.url);
    });
    reportCompaction(result, atStart, this.log, this.recent);
    return result;
  }

  /**
   * Lets pending deliveries go out for up to `graceMs` (a stop's last FileClosed/SessionEnded reach a healthy
   * receiver); deliveries waiting for a retry are left to the journal. Resolves early once nothing is due.
   */
  async drain(graceMs: number): Promise<void> {
    const end = Date.now() + graceMs;
    while (this.started && Date.now() < end && [...this.lanes.values()].some((l) => l.busy)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Stops timers, cuts in-flight attempts (they count; the next start resumes after them) and flushes the journal. */
  async close(): Promise<void> {
    for (const detach of [...this.detachers]) detach();
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    if (!this.started) return;
    this.started = false;
    this.closed = true;
    this.abort.abort();
    await Promise.all([...this.lanes.values()].map((l) => l.stop()));
    this.lanes.clear();
    await this.journal.settle();
    this.journal.close();
    this.lock.release();
    this.log.info({ journal: this.journalPath }, 'webhook outbox closed');
  }

  /**
   * Sends a recent message's exact bytes (same EventId) once more to one URL: a manual replay after the
   * automatic attempts, not journaled and not retried. null when the message is no longer held.
   */
  async replay(eventId: string, url: string): Promise<AttemptOutcome | null> {
    const body = this.bodies.get(eventId);
    if (body === undefined || !this.recent.list().some((d) => d.eventId === eventId && d.url === url)) return null;
    const outcome = await sendOnce(url, body, this.settings.read().timeoutMs, this.abort.signal);
    this.log.info({ eventId, url: redactUrl(url), ok: outcome.ok, status: outcome.status }, 'webhook delivery replayed by hand');
    return outcome;
  }

  /** Recent (event, URL) deliveries, newest first; shape = WebhookDeliveriesSchema. */
  recentDeliveries(): WebhookDelivery[] {
    return this.recent.list();
  }

  stats(): OutboxStats {
    const lanes = [...this.lanes.values()].map((l) => ({ url: l.url, loaded: l.loaded, inFlight: l.active, spilled: l.cursor !== null }));
    return {
      started: this.started,
      journalPath: this.journalPath,
      journalBytes: this.journal.size,
      loaded: lanes.reduce((a, l) => a + l.loaded, 0),
      maxLoaded: this.maxLoaded,
      inFlight: lanes.reduce((a, l) => a + l.inFlight, 0),
      lanes,
    };
  }
}
