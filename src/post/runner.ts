// What a post-file job runner is given and returns; runners.ts maps each job kind to one.
import type { Logger } from '../log/logger.js';
import type { PostJob } from './job.js';
import type { SkippedRange } from './remux/ledger.js';

export interface JobContext {
  /** The file this step works on: the recording, or the MP4 an earlier remux step left. */
  input: string;
  workDir: string;
  /** Aborted when the service stops: the runner gives up at once and leaves its inputs untouched. */
  signal: AbortSignal;
  log: Logger;
}

export interface JobResult {
  /** An absolute path the job produced. */
  output?: string;
  /** The job ended but not wholly (state done-with-warnings): what was not done, and the source is kept. */
  warning?: string;
  /** The source's byte ranges a remux did not copy (the first ones; the warning gives the totals). */
  skipped?: SkippedRange[];
}

export interface JobRunner {
  run(job: PostJob, ctx: JobContext): Promise<JobResult>;
}
