// Constructor options and the stats shape of the webhook outbox.
import type { Logger } from '../log/logger.js';
import type { GetWebhookSettings } from './settings.js';

export interface WebhookOutboxOptions {
  /** The recorder's work directory; the journal lives in its hidden `.liverec/` folder. */
  workDir: string;
  getSettings: GetWebhookSettings;
  logger?: Logger;
  /** Attempts in flight per URL (default 4). */
  maxInFlightPerUrl?: number;
  /** Deliveries held in memory per URL; the rest wait in the journal (default 64). */
  windowPerUrl?: number;
  /** Entries kept for recentDeliveries() (default 200). */
  recentLimit?: number;
  /** How often the journal is compacted while running (default 60 s); it is always compacted at start. */
  compactIntervalMs?: number;
  /** How often appended journal lines are fdatasync'ed (default 1 s). */
  syncIntervalMs?: number;
  /** Per-attempt timeout when the settings carry none (default 10 s). */
  timeoutMs?: number;
}

export interface OutboxStats {
  started: boolean;
  journalPath: string;
  journalBytes: number;
  /** Deliveries in memory now, across all URLs. */
  loaded: number;
  /** The most deliveries ever in memory at once since construction. */
  maxLoaded: number;
  inFlight: number;
  lanes: { url: string; loaded: number; inFlight: number; spilled: boolean }[];
}
