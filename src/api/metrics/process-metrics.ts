// Process-wide metrics (CPU, RSS, heap, event-loop delay): prom-client's defaults, registered once per process.
import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | null = null;

/** One registry for the whole process: the event-loop monitor behind it must not be started per API app. */
export function processRegistry(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  }
  return registry;
}
