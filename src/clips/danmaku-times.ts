// The kind and time of every element of a danmaku XML, parsed on the danmaku thread once per version of the file
// (heat and suggestions of one recording ask together, and the live page asks again every 10 s while the XML grows).
import { stat } from 'node:fs/promises';
import type { Piscina } from 'piscina';
import { LiverecError } from '../errors.js';
import { workerPath } from '../paths.js';
import type { DanmakuTimes, DanmakuTimesTask } from './danmaku-parse.js';

export type { DanmakuTimes } from './danmaku-parse.js';

/** Versions kept: a few recordings open in a few pages. */
const KEEP = 8;
/** Reads waiting beyond the one running; more are refused at once (a page asks again). */
const MAX_QUEUE = 32;
/** A read that takes longer ends its thread (a replacement starts for the next). */
const READ_TIMEOUT_MS = 180_000;
const cache = new Map<string, { key: string; times: Promise<DanmakuTimes> }>();

let pool: Promise<Piscina> | null = null;

function getPool(): Promise<Piscina> {
  pool ??= import('piscina').then(({ Piscina }) => new Piscina({
    filename: workerPath('danmaku'),
    minThreads: 0,
    maxThreads: 1,
    maxQueue: MAX_QUEUE,
    idleTimeout: 30_000,
    // The parse tree of a 50 MB XML takes several hundred MB; a larger one ends its thread, not the service.
    resourceLimits: { maxOldGenerationSizeMb: 1536, maxYoungGenerationSizeMb: 64 },
  }));
  return pool;
}

/** The thread's error as the API reports it: a 400 with the reason (DANMAKU_BAD_INPUT). */
function why(xml: string, err: Error & { code?: string }): LiverecError {
  if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') return new LiverecError('DANMAKU_BAD_INPUT', `${xml} is too large to read`);
  if (err.name === 'AbortError' || err.name === 'TimeoutError') return new LiverecError('DANMAKU_BAD_INPUT', `reading ${xml} took longer than ${READ_TIMEOUT_MS / 1000} s`);
  return new LiverecError('DANMAKU_BAD_INPUT', err.message);
}

/** The XML's elements (kind and seconds), from the cache when its size and mtime are unchanged; rejects with DANMAKU_BAD_INPUT. */
export async function danmakuTimes(xml: string): Promise<DanmakuTimes> {
  const st = await stat(xml).catch((err: Error) => {
    throw new LiverecError('DANMAKU_BAD_INPUT', `cannot read ${xml}: ${err.message}`);
  });
  const key = `${st.size}:${st.mtimeMs}`;
  const hit = cache.get(xml);
  cache.delete(xml);
  if (hit?.key === key) {
    cache.set(xml, hit);
    return hit.times;
  }
  const task: DanmakuTimesTask = { path: xml };
  const times = getPool()
    .then((p) => p.run(task, { signal: AbortSignal.timeout(READ_TIMEOUT_MS) }) as Promise<DanmakuTimes>)
    .catch((err: Error) => {
      // A failed read is not kept: the next ask tries again.
      if (cache.get(xml)?.times === times) cache.delete(xml);
      throw why(xml, err);
    });
  cache.set(xml, { key, times });
  while (cache.size > KEEP) cache.delete(cache.keys().next().value!);
  return times;
}

/** Stops the danmaku thread (API shutdown). */
export async function closeDanmakuPool(): Promise<void> {
  const p = pool;
  pool = null;
  cache.clear();
  await (await p)?.destroy();
}
