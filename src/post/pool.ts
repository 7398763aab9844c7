// The threads CPU-bound post-file steps run on: a small piscina pool, started on first use, idle threads exit.
import type { Piscina } from 'piscina';
import { workerPath } from '../paths.js';
import { LiverecError } from '../errors.js';
import type { PostTask, PostTaskOutcome, PostTaskResult } from './post-task.js';

let pool: Promise<Piscina> | null = null;

/**
 * The heap a post thread may use. The remux keeps its tables in a spool file and media in fixed buffers (flat in the
 * input's length: bench/remux.ts --ts), so a thread that needs more is a runaway: it ends (the job fails, the
 * source stays) instead of taking the service's memory. A danmaku XML of a long stream is its largest honest user.
 */
export const POST_WORKER_LIMITS = { maxOldGenerationSizeMb: 160, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 } as const;

function getPool(): Promise<Piscina> {
  pool ??= import('piscina').then(({ Piscina }) => new Piscina({
    filename: workerPath('post'),
    minThreads: 0,
    // The queue bounds how many jobs run at once; two threads cover the default of one plus a command's follower.
    maxThreads: 2,
    idleTimeout: 30_000,
    resourceLimits: POST_WORKER_LIMITS,
  }));
  return pool;
}

/**
 * Runs a task on a pool thread; an abort ends the thread (piscina replaces it), leaving the task's inputs as they were.
 * A task's error is thrown here with its `code`, so the queue can tell a refusal from a passing failure.
 */
export async function runOnPool(task: PostTask, signal: AbortSignal): Promise<PostTaskResult> {
  const out = (await (await getPool()).run(task, { signal })) as PostTaskOutcome;
  if ('error' in out) throw LiverecError.fromPlain(out.error);
  return out.ok;
}

export async function closePostPool(): Promise<void> {
  const p = pool;
  pool = null;
  await (await p)?.destroy();
}
