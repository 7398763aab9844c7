// The `clip` post-job: the clip is cut on a pool thread (the API's event loop and the recording threads never wait).
import type { PostJob } from '../post/job.js';
import { runOnPool } from '../post/pool.js';
import type { JobContext, JobResult } from '../post/runner.js';
import type { ClipFormat, ClipResult } from './clip.js';

/** The job's frozen request (params are journaled as they were asked for). */
export interface ClipParams {
  startMs: number;
  endMs: number;
  format: ClipFormat;
  danmaku: boolean;
}

export function clipParams(job: PostJob): ClipParams {
  const p = job.params;
  return { startMs: Number(p.startMs), endMs: Number(p.endMs), format: p.format === 'flv' ? 'flv' : 'mp4', danmaku: p.danmaku !== false };
}

export async function runClip(job: PostJob, ctx: JobContext): Promise<JobResult> {
  const result = (await runOnPool({ kind: 'clip', input: job.source, ...clipParams(job) }, ctx.signal)) as ClipResult;
  ctx.log.info({ output: result.output, fromMs: result.fromMs, toMs: result.toMs, durationS: result.durationS, danmaku: result.danmaku?.items ?? null }, 'clip written');
  return { output: result.output };
}
