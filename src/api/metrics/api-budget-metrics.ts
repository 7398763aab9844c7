// Metrics of the live-API budget and batch detection: budget, use, waits, pauses, batch checks and fallbacks.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Recorder } from '../../rooms/recorder.js';

export function registerApiBudgetMetrics(reg: Registry[], recorder: Recorder): void {
  const usage = () => recorder.detection.usage.usage();
  const gauge = (name: string, help: string, value: () => number): void => {
    new Gauge({ name, help, registers: reg, collect() { this.set(value()); } });
  };
  const counter = (name: string, help: string, value: () => number): void => {
    new Counter({ name, help, registers: reg, collect() { this.reset(); this.inc(value()); } });
  };
  gauge('liverec_api_budget_per_minute', 'ApiBudgetPerMinute: the ceiling of live-API calls in any minute (0 = no budget)', () => usage().budgetPerMinute);
  gauge('liverec_api_rate_per_minute', 'The learned live-API rate in force: calls allowed in any minute (halved on 412/-352, grows back to the ceiling)', () => usage().ratePerMinute);
  counter('liverec_api_rate_cuts_total', 'Risk-control answers (412/-352) that halved the learned rate', () => usage().rateCuts);
  new Gauge({ name: 'liverec_api_queued_calls', help: 'Live-API calls waiting for their turn in the budget, by priority', labelNames: ['priority'], registers: reg,
    collect() {
      for (const [priority, n] of Object.entries(usage().queued)) this.set({ priority }, n);
    } });
  gauge('liverec_api_calls_last_minute', 'Live-API calls in the last minute, batch checks included', () => usage().callsLastMinute);
  counter('liverec_api_calls_total', 'Live-API calls made through the budget (every room and thread)', () => usage().calls);
  counter('liverec_api_budget_wait_seconds_total', 'Seconds calls waited for their slot in the budget', () => usage().waitedMs / 1000);
  counter('liverec_api_budget_pauses_total', 'Pauses of every live-API call after a risk-control answer (412/-352)', () => usage().pauses);
  counter('liverec_batch_checks_total', 'Batch live-status calls (get_status_info_by_uids)', () => recorder.detection.detector.calls);
  counter('liverec_batch_check_failures_total', 'Batch live-status calls that failed (rooms then checked one by one)', () => recorder.detection.detector.failures);
  counter('liverec_batch_fallback_checks_total', 'Per-room checks made because the batch call failed', () => recorder.detection.fallbackChecks);
}
