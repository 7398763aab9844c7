// GET /metrics: the Prometheus text exposition (behind the same guard, CORS and auth as the API).
import type { ApiApp } from '../context.js';
import type { RecorderMetrics } from './recorder-metrics.js';

export function registerMetricsRoutes(app: ApiApp, metrics: RecorderMetrics): void {
  app.get('/metrics', async (c) => c.body(await metrics.scrape(), 200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }));
}
