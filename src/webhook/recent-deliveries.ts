// Bounded in-memory list of recent (event, URL) deliveries, most recently active first, updated as attempts happen.
import type { DeliveryState, WebhookDelivery } from './deliveries-schema.js';
import { formatUtc } from '../time.js';
import type { EventType } from '../events/types.js';

export interface DeliveryKeyInfo {
  key: string;
  eventId: string;
  eventType: EventType;
  version: 1 | 2;
  url: string;
  createdAt: number;
}

export interface DeliveryUpdate {
  attempts?: number;
  state?: DeliveryState;
  lastStatus?: number | null;
  lastError?: string | null;
  lastErrorCode?: string | null;
  nextAttemptAt?: number | null;
  finishedAt?: number | null;
}

const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : formatUtc(new Date(ms)));

export class RecentDeliveries {
  // Map keeps insertion order, so the first key is always the oldest entry to evict.
  private readonly entries = new Map<string, WebhookDelivery>();

  constructor(private readonly limit: number) {}

  update(info: DeliveryKeyInfo, patch: DeliveryUpdate, now = Date.now()): void {
    let e = this.entries.get(info.key);
    // Most recently active last: re-inserting moves the entry, so a delivery that just gave up is never the one evicted.
    if (e) this.entries.delete(info.key);
    else {
      e = {
        eventId: info.eventId,
        eventType: info.eventType,
        version: info.version,
        url: info.url,
        attempts: 0,
        state: 'queued',
        lastStatus: null,
        lastError: null,
        lastErrorCode: null,
        createdAt: formatUtc(new Date(info.createdAt)),
        updatedAt: formatUtc(new Date(now)),
        nextAttemptAt: null,
        finishedAt: null,
      };
    }
    this.entries.set(info.key, e);
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
    if (patch.attempts !== undefined) e.attempts = patch.attempts;
    if (patch.state !== undefined) e.state = patch.state;
    if (patch.lastStatus !== undefined) e.lastStatus = patch.lastStatus;
    if (patch.lastError !== undefined) e.lastError = patch.lastError;
    if (patch.lastErrorCode !== undefined) e.lastErrorCode = patch.lastErrorCode;
    if (patch.nextAttemptAt !== undefined) e.nextAttemptAt = iso(patch.nextAttemptAt);
    if (patch.finishedAt !== undefined) e.finishedAt = iso(patch.finishedAt);
    e.updatedAt = formatUtc(new Date(now));
  }

  /** Most recently updated first; copies, so callers cannot change the live entries. */
  list(): WebhookDelivery[] {
    return [...this.entries.values()].reverse().map((e) => ({ ...e }));
  }
}
