// The remux step: source → temp MP4 on a pool thread → verified against the source → renamed; the source deleted last,
// and only when every byte of it was accounted for and an independent reader of the source agrees with the MP4.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { LiverecError } from '../errors.js';
import type { PostJob } from './job.js';
import { runOnPool } from './pool.js';
import { describeSkipped } from './remux/ledger.js';
import type { RemuxReport } from './remux/remux.js';
import { readMp4Summary } from './remux/mp4-summary.js';
import { verifyRemux, verifySamples } from './remux/verify.js';
import type { JobContext, JobResult } from './runner.js';

const base = (path: string): string => path.replace(/\.[^./\\]+$/, '');

/** The MP4 a source becomes: `x.flv` → `x.mp4`; a fragmented `x.mp4` → itself when the source goes, else `x.faststart.mp4`. */
export function remuxOutputPath(input: string, deleteSource: boolean): string {
  if (/\.mp4$/i.test(input)) return deleteSource ? input : input.replace(/\.mp4$/i, '.faststart.mp4');
  return `${base(input)}.mp4`;
}

/** The MP4 of a remux that could not copy everything: kept beside the (kept) source, named so no one takes it for whole. */
export const partialOutputPath = (input: string): string => `${base(input)}.partial.mp4`;

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
  const books = report.ledger;
  ctx.log.info({ input, output, tracks: report.tracks, anomalies: report.anomalies, ledger: { ...books, skipped: books.skipped.slice(0, 5) } }, 'remuxed to MP4');
  /** Keeps the source and the MP4 as partial: the job ends done-with-warnings with what was not copied. */
  const partial = (warning: string): JobResult => {
    const kept = partialOutputPath(input);
    renameSync(tmp, kept);
    return { output: kept, warning: `${warning}; the source is kept, the MP4 is ${kept}`, skipped: books.skipped };
  };
  if (books.skippedBytes > 0) return partial(describeSkipped(books));
  if (deleteSource) {
    // The demuxer that built the index and its own accounting could share a mistake: a second, simpler reader of the
    // source must count the same samples as the MP4 holds before anything is deleted or replaced.
    let check: { problem: string | null };
    try {
      check = (await runOnPool({ kind: 'cross-check', input, output: tmp, format: report.format }, ctx.signal)) as { problem: string | null };
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
    if (check.problem) return partial(`not deleted: ${check.problem}`);
  }
  renameSync(tmp, output);
  if (deleteSource && input !== output) rmSync(input, { force: true });
  return { output };
}
