// The machine's wake-up floor: how late an idle thread's 1-ms timer fires while the benchmark runs.
//
// Why: API latency on a loaded small machine is bounded below by how soon the kernel runs a thread that
// wakes up (server and client both wake once per request). An idle thread that only sleeps 1 ms at a time
// shows that floor for the same window, so an API p99 can be read against it.
import { Worker } from 'node:worker_threads';

/** Delay beyond the 1-ms timer, in ms. */
export interface WakeupFigures {
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
}

const PROBE = `
const { parentPort } = require('node:worker_threads');
const { monitorEventLoopDelay } = require('node:perf_hooks');
const h = monitorEventLoopDelay({ resolution: 1 });
const late = (ns) => Math.max(0, ns / 1e6 - 1);
parentPort.on('message', (m) => {
  if (m === 'start') { h.reset(); h.enable(); return; }
  h.disable();
  parentPort.postMessage({ p50Ms: late(h.percentile(50)), p99Ms: late(h.percentile(99)), p999Ms: late(h.percentile(99.9)), maxMs: late(h.max) });
  parentPort.close();
});
`;

/** Starts an idle probe thread; `start()` begins its window, `stop()` ends it and returns the figures. */
export function wakeupProbe(): { start(): void; stop(): Promise<WakeupFigures | null> } {
  const worker = new Worker(PROBE, { eval: true });
  worker.unref();
  return {
    start: () => worker.postMessage('start'),
    stop: () =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), 2000);
        worker.once('message', (m: WakeupFigures) => {
          clearTimeout(timer);
          resolve(m);
        });
        worker.postMessage('stop');
      }),
  };
}
