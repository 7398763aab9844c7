// What a post-file job runner is given and returns; runners.ts maps each job kind to one.
import type { Logger } from '../log/logger.js';
import type { PostJob } from './job.js';

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
}

export interface JobRunner {
  run(job: PostJob, ctx: JobContext): Promise<JobResult>;
}
