// The remux step: source → temp MP4 on a pool thread → verified against the source → renamed; the source deleted last.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { LiverecError } from '../errors.js';
import type { PostJob } from './job.js';
import { runOnPool } from './pool.js';
import type { RemuxReport } from './remux/remux.js';
import { readMp4Summary } from './remux/mp4-summary.js';
import { verifyRemux, verifySamples } from './remux/verify.js';
import type { JobContext, JobResult } from './runner.js';

/** The MP4 a source becomes: `x.flv` → `x.mp4`; a fragmented `x.mp4` → itself when the source goes, else `x.faststart.mp4`. */
export function remuxOutputPath(input: string, deleteSource: boolean): string {
  if (/\.mp4$/i.test(input)) return deleteSource ? input : input.replace(/\.mp4$/i, '.faststart.mp4');
  return input.replace(/\.[^./\\]+$/, '') + '.mp4';
}

export async function runRemux(job: PostJob, ctx: JobContext): Promise<JobResult> {
  const deleteSource = job.params.deleteSource === true;
  const input = ctx.input;
  const output = remuxOutputPath(input, deleteSource);
  const tmp = `${output}.remux-tmp`;
  if (!existsSync(input)) {
    // A kill after the source was deleted (or replaced) but before the job was recorded done: the MP4 is the result.
    if (existsSync(output) && readMp4Summary(output)) return { output };
    throw new LiverecError('POST_REMUX_NO_SOURCE', `${input} is gone; nothing to remux`);
  }
  if (deleteSource && input === output && readMp4Summary(input)?.faststart) return { output };
  let report: RemuxReport;
  try {
    report = (await runOnPool({ kind: 'remux', input, output: tmp }, ctx.signal)) as RemuxReport;
  } catch (err) {
    // A half-written MP4 is worth nothing; a retry or the next start writes it again from the untouched source.
    rmSync(tmp, { force: true });
    // The table spool is unlinked as soon as it opens; only where the OS refuses that (Windows) can a name remain.
    rmSync(`${tmp}.tables`, { force: true });
    throw err;
  }
  const written = readMp4Summary(tmp);
  const problem = verifyRemux(report, written) ?? verifySamples(report, written!, tmp);
  if (problem) {
    rmSync(tmp, { force: true });
    throw new LiverecError('POST_REMUX_VERIFY', `the MP4 of ${input} does not match it: ${problem}; the source is kept`);
  }
  ctx.log.info({ input, output, tracks: report.tracks, anomalies: report.anomalies }, 'remuxed to MP4');
  renameSync(tmp, output);
  if (deleteSource && input !== output) rmSync(input, { force: true });
  return { output };
}
