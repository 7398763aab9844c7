// Runs tool jobs: one input inline, several in parallel on a piscina pool, with aggregated progress.
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { workerPath } from '../../paths.js';
import runToolTask, { type ToolTask, type ToolTaskResult } from '../../../workers/tool.worker.js';
import { progressBarFor } from './progress.js';
import { POST_WORKER_LIMITS } from '../../post/pool.js';

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Runs every task and returns results in input order. A single task runs in this thread (no worker
 * start-up); several run on a pool sized to the machine (minThreads 0, idle threads exit, nice +10 so
 * repairs yield to live recording). Only paths and small reports cross threads.
 */
export async function runJobs(tasks: Omit<ToolTask, 'progressPort'>[], label: string): Promise<ToolTaskResult[]> {
  const total = tasks.reduce((s, t) => s + sizeOf(t.input), 0);
  const bar = progressBarFor(process.stderr, total, label);
  try {
    if (tasks.length === 1) {
      const task = tasks[0]!;
      return [runToolTask(task, bar ? (done) => bar.update(0, done) : undefined)];
    }
    // Loaded only here: a single input never starts a worker.
    const { Piscina } = await import('piscina');
    const pool = new Piscina({
      filename: workerPath('tool'),
      minThreads: 0,
      maxThreads: Math.max(1, Math.min(tasks.length, availableParallelism() - 1 || 1)),
      idleTimeout: 30_000,
      niceIncrement: 10,
      resourceLimits: POST_WORKER_LIMITS,
    });
    try {
      return await Promise.all(
        tasks.map(async (task, id) => {
          if (!bar) return (await pool.run(task)) as ToolTaskResult;
          const { port1, port2 } = new MessageChannel();
          port1.on('message', (m: { done: number }) => bar.update(id, m.done));
          try {
            return (await pool.run({ ...task, progressPort: port2 }, { transferList: [port2] })) as ToolTaskResult;
          } finally {
            port1.close();
          }
        }),
      );
    } finally {
      await pool.destroy();
    }
  } finally {
    bar?.finish();
  }
}
