// Public surface of the Prometheus metrics.
export { RecorderMetrics, type RecorderMetricsOptions } from './recorder-metrics.js';
export { registerMetricsRoutes } from './route.js';
