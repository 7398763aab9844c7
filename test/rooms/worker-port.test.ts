// A worker's last messages before it dies (its FileClosed events) all reach the main thread, in order.
import { MessageChannel, Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { listenToWorkerPort } from '../../src/rooms/worker-port.js';

// Posts as fast as it can, then exits the way a crashing room host does (process.exit after last words).
const DYING_WORKER = `
const { workerData } = require('node:worker_threads');
for (let i = 0; i < workerData.count; i++) workerData.port.postMessage(i);
process.exit(1);
`;

function runDyingWorker(count: number): Promise<number[]> {
  const { port1, port2 } = new MessageChannel();
  const seen: number[] = [];
  const drain = listenToWorkerPort<number>(port1, (m) => seen.push(m));
  const worker = new Worker(DYING_WORKER, { eval: true, workerData: { port: port2, count }, transferList: [port2] });
  return new Promise((resolve) => worker.on('exit', () => {
    drain();
    resolve(seen);
  }));
}

describe('the port of a dying worker', () => {
  it('hands over every message posted before the exit, in order, and only once', async () => {
    for (let round = 0; round < 5; round++) {
      const seen = await runDyingWorker(20_000);
      expect(seen.length).toBe(20_000);
      expect(seen.every((m, i) => m === i)).toBe(true);
    }
  });
});
