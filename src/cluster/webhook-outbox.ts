// The webhook outbox of a cluster node: events journaled in PostgreSQL, delivered by whichever live node claims them.
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../events/bus.js';
import { EVENT_TYPES, type RecorderEvent } from '../events/types.js';
import { logger } from '../log/logger.js';
import type { WebhookDelivery } from '../webhook/deliveries-schema.js';
import { deliveryKey } from '../webhook/delivery.js';
import { buildV1Payload } from '../webhook/payload-v1.js';
import { buildV2Payload } from '../webhook/payload-v2.js';
import { RecentDeliveries } from '../webhook/recent-deliveries.js';
import { MAX_ATTEMPTS } from '../webhook/retry-policy.js';
import { sendOnce, type AttemptOutcome } from '../webhook/sender.js';
import { type GetWebhookSettings, WebhookSettingsReader } from '../webhook/settings.js';
import type { Db } from './db.js';
import { claimDue, type ClaimedDelivery, deliveryBody, finishAttempt, giveUpExhausted, insertDeliveries, type NewDelivery, pruneFinished } from './webhook-queries.js';

export interface ClusterOutboxOptions {
  db: Db;
  nodeId: string;
  getSettings: GetWebhookSettings;
  /** How often this node looks for due deliveries, its own and other nodes' (default 500 ms). */
  pollMs?: number;
  /** Attempts this node makes at once (default 8). */
  maxInFlight?: number;
}

/** How long delivered and given-up rows stay in the table. */
const KEEP_FINISHED_MS = 7 * 24 * 3600_000;

/** Events about files name the node whose disk holds the file. */
const FILE_EVENTS = new Set(['FileOpening', 'FileClosed']);

export class ClusterWebhookOutbox {
  private readonly log;
  private readonly settings: WebhookSettingsReader;
  private readonly recent = new RecentDeliveries(200);
  /** Journaled in memory until the database takes them (it may be briefly unreachable). */
  private unsaved: NewDelivery[] = [];
  private saving: Promise<void> = Promise.resolve();
  private readonly active = new Set<Promise<void>>();
  private readonly detachers = new Set<() => void>();
  private abort = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private started = false;
  private lastSweep = 0;

  constructor(private readonly options: ClusterOutboxOptions) {
    this.log = logger().child({ component: 'webhook', node: options.nodeId });
    this.settings = new WebhookSettingsReader(options.getSettings, this.log);
  }

  attach(bus: EventBus): () => void {
    const off = bus.on((event) => this.publish(event));
    const detach = (): void => { off(); this.detachers.delete(detach); };
    this.detachers.add(detach);
    return detach;
  }

  /** Builds the bodies once (the same EventId and bytes on every attempt, whichever node makes it) and journals them. */
  publish(event: RecorderEvent): string | null {
    if (!(EVENT_TYPES as readonly string[]).includes(event?.EventType)) return null;
    const s = this.settings.read();
    if (s.v1.length === 0 && s.v2.length === 0) return null;
    if (FILE_EVENTS.has(event.EventType)) event = { ...event, EventData: { ...event.EventData, NodeId: this.options.nodeId } } as RecorderEvent;
    const eventId = randomUUID();
    const add = (version: 1 | 2, id: string, body: string, urls: string[]): void => {
      urls.forEach((url, urlIndex) => this.unsaved.push({ eventId: id, urlIndex, version, eventType: event.EventType, url, body }));
    };
    if (s.v2.length) add(2, eventId, JSON.stringify(buildV2Payload(event, eventId)), s.v2);
    const v1 = s.v1.length ? buildV1Payload(event, randomUUID()) : null;
    if (v1) add(1, v1.EventRandomId, JSON.stringify(v1), s.v1);
    void this.save().then(() => this.poll());
    return eventId;
  }

  private save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      const rows = this.unsaved;
      if (rows.length === 0) return;
      this.unsaved = [];
      try {
        await insertDeliveries(this.options.db, this.options.nodeId, rows);
      } catch (err) {
        this.unsaved = [...rows, ...this.unsaved];
        this.log.warn({ err: (err as Error).message, pending: this.unsaved.length }, 'webhook events not yet journaled in the cluster database; retrying');
      }
    });
    return this.saving;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.abort = new AbortController();
    const tick = (): void => {
      void this.save().then(() => this.poll()).finally(() => {
        if (this.started) this.timer = setTimeout(tick, this.options.pollMs ?? 500);
      });
    };
    tick();
  }

  private async poll(): Promise<void> {
    if (!this.started || this.polling) return;
    this.polling = true;
    try {
      const room = (this.options.maxInFlight ?? 8) - this.active.size;
      if (room <= 0) return;
      const claimMs = this.settings.read().timeoutMs + 5000;
      const claimed = await claimDue(this.options.db, this.options.nodeId, room, claimMs);
      for (const d of claimed) {
        const p = this.attempt(d).finally(() => this.active.delete(p));
        this.active.add(p);
      }
      if (Date.now() - this.lastSweep > 5000) {
        this.lastSweep = Date.now();
        await giveUpExhausted(this.options.db);
        await pruneFinished(this.options.db, KEEP_FINISHED_MS);
      }
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'could not claim webhook deliveries');
    } finally {
      this.polling = false;
    }
  }

  private async attempt(d: ClaimedDelivery): Promise<void> {
    const info = { key: deliveryKey(d.eventId, d.urlIndex), eventId: d.eventId, eventType: d.eventType as WebhookDelivery['eventType'], version: d.version, url: d.url, createdAt: d.createdAt.getTime() };
    this.recent.update(info, { attempts: d.attempts, state: 'sending' });
    const outcome = await sendOnce(d.url, d.body, this.settings.read().timeoutMs, this.abort.signal);
    const last = outcome.ok ? 'delivered' : d.attempts >= MAX_ATTEMPTS ? 'given-up' : 'retrying';
    this.recent.update(info, {
      state: last, lastStatus: outcome.status ?? null,
      lastError: outcome.ok ? null : outcome.error, lastErrorCode: outcome.ok ? null : outcome.code,
      finishedAt: last === 'retrying' ? null : Date.now(),
    });
    this.log[outcome.ok ? 'debug' : 'warn']({ eventId: d.eventId, url: d.url, attempt: d.attempts, status: outcome.status, error: outcome.ok ? undefined : outcome.error }, 'webhook attempt');
    await finishAttempt(this.options.db, this.options.nodeId, d, outcome.ok, outcome.status ?? null, outcome.ok ? null : outcome.error)
      .catch((err: unknown) => this.log.warn({ eventId: d.eventId, err: (err as Error).message }, 'webhook outcome not recorded; the claim expires and another attempt follows'));
    if (this.started) void this.poll();
  }

  /** At a stop: journals the last events and lets attempts due now go out for up to `graceMs`; the rest stays for other nodes. */
  async drain(graceMs: number): Promise<void> {
    const end = Date.now() + graceMs;
    await this.save();
    while (this.started && Date.now() < end) {
      await this.poll();
      if (this.active.size === 0) return;
      await Promise.race([Promise.all([...this.active]), new Promise((r) => setTimeout(r, Math.max(0, end - Date.now())))]);
    }
  }

  /** Journals what the last events left, cuts attempts in flight (they count) and releases their claims. */
  async close(): Promise<void> {
    for (const detach of [...this.detachers]) detach();
    if (!this.started) return;
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    await this.save();
    this.abort.abort();
    await Promise.all([...this.active]);
    this.log.info({ unsaved: this.unsaved.length }, 'cluster webhook outbox closed');
  }

  /** A manual replay of a journaled event to one URL, from whichever node has it in the database. */
  async replay(eventId: string, url: string): Promise<AttemptOutcome | null> {
    const body = await deliveryBody(this.options.db, eventId, url);
    if (body === null) return null;
    return sendOnce(url, body, this.settings.read().timeoutMs, this.abort.signal);
  }

  /** This node's recent attempts (the cluster-wide state is in liverec_webhook_deliveries). */
  recentDeliveries(): WebhookDelivery[] {
    return this.recent.list();
  }
}
