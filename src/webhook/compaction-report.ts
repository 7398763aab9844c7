// Logs what a journal compaction did and records deliveries it had to give up (last attempt cut by a stop).
import type { Logger } from '../log/logger.js';
import { deliveryKey } from './delivery.js';
import type { CompactResult } from './journal-compact.js';
import type { RecentDeliveries } from './recent-deliveries.js';

export function reportCompaction(result: CompactResult, atStart: boolean, log: Logger, recent: RecentDeliveries): void {
  for (const x of result.expired) {
    recent.update(
      { key: deliveryKey(x.m, x.i), eventId: x.m, eventType: x.t, version: x.v, url: x.url, createdAt: x.at },
      {
        attempts: x.state.n,
        state: 'given-up',
        lastStatus: x.state.st ?? null,
        lastError: x.state.err ?? 'last attempt interrupted by a restart',
        lastErrorCode: 'WEBHOOK_INTERRUPTED',
        finishedAt: Date.now(),
      },
    );
    log.error(
      { eventId: x.m, eventType: x.t, version: x.v, url: x.url, attempts: x.state.n, code: 'WEBHOOK_INTERRUPTED' },
      'webhook given up after 3 attempts (the last one was interrupted)',
    );
  }
  const level = atStart || result.anomalies ? 'info' : 'debug';
  log[level](
    { kept: result.kept, dropped: result.dropped, anomalies: result.anomalies, bytesBefore: result.bytesBefore, bytesAfter: result.bytesAfter },
    'webhook journal compacted',
  );
  if (result.anomalies) {
    log.warn({ anomalies: result.anomalies, setAside: result.setAside, code: 'WEBHOOK_JOURNAL_ANOMALY' },
      result.setAside ? 'webhook journal had unreadable lines: set aside, the rest goes on' : 'webhook journal had unreadable lines (skipped)');
  }
}
