// liverec_gap_seconds_total{reason}: media time the recorded files lack, summed from FileClosed events' Gaps.
import { Counter, type Registry } from 'prom-client';
import { GAP_REASONS, type RecorderEvent } from '../../events/types.js';

export class GapSeconds {
  private readonly totals = new Map<string, number>(GAP_REASONS.map((r) => [r, 0]));

  onEvent(e: RecorderEvent): void {
    if (e.EventType !== 'FileClosed') return;
    for (const g of e.EventData.Gaps ?? []) this.totals.set(g.Reason, (this.totals.get(g.Reason) ?? 0) + g.DurationMs / 1000);
  }

  register(registry: Registry): void {
    const totals = this.totals;
    new Counter({
      name: 'liverec_gap_seconds_total',
      help: 'Seconds of stream that closed files lack, by reason (reconnect, hls-segment, timestamp-jump); see FileClosed Gaps',
      labelNames: ['reason'], registers: [registry],
      collect() {
        this.reset();
        for (const [reason, s] of totals) this.inc({ reason }, s);
      },
    });
  }
}
