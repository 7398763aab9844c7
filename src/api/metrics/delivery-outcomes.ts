// Webhook deliveries by outcome, counted from the outbox's recent-deliveries list as deliveries finish.
import type { WebhookDelivery } from '../../webhook/deliveries-schema.js';

export class DeliveryOutcomes {
  readonly totals = { delivered: 0, 'given-up': 0 };
  /** Finished deliveries already counted; pruned to what the (bounded) recent list still holds. */
  private counted = new Set<string>();

  /**
   * Sampled every second: a burst of more deliveries than the recent list holds (200) between two samples is
   * undercounted, which is documented in docs/web-ui.md.
   */
  sample(list: readonly WebhookDelivery[]): void {
    const next = new Set<string>();
    for (const d of list) {
      if (d.state !== 'delivered' && d.state !== 'given-up') continue;
      const key = `${d.eventId}#${d.url}#${d.state}`;
      next.add(key);
      if (!this.counted.has(key)) this.totals[d.state]++;
    }
    this.counted = next;
  }
}
