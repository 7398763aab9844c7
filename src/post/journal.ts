// The post-file job journal: one JSON line per job state change (synced), compacted to the live set at start.
import { closeSync, existsSync, fdatasyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { atomicWriteFile } from '../config/atomic-write.js';
import { LiverecError } from '../errors.js';
import { JOB_KINDS, JOB_STATES, isFinished, type PostJob } from './job.js';

export const JOBS_JOURNAL_RELATIVE_PATH = join('.liverec', 'post-jobs.jsonl');
/** Finished jobs kept across a compaction, newest first, so the API and a repeated FileClosed still see them. */
const KEEP_FINISHED = 500;
const KEEP_FINISHED_NOTICES = 200;

function isJob(x: unknown): x is PostJob {
  const j = x as PostJob;
  return typeof j === 'object' && j !== null && typeof j.id === 'string' && typeof j.fileId === 'string' &&
    (JOB_KINDS as readonly string[]).includes(j.kind) && (JOB_STATES as readonly string[]).includes(j.state) &&
    typeof j.source === 'string' && Number.isInteger(j.step) && Number.isInteger(j.attempts);
}

export class JobJournal {
  private fd: number | null = null;
  /** Lines that were not a job (a torn last line after a kill), found by the last load. */
  anomalies = 0;

  constructor(readonly path: string) {}

  /** Reads every job's last state, rewrites the file with the live set only, and opens it for appends. */
  load(): PostJob[] {
    const jobs = new Map<string, PostJob>();
    this.anomalies = 0;
    if (existsSync(this.path)) {
      for (const line of readFileSync(this.path, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        try {
          const j: unknown = JSON.parse(line);
          if (isJob(j)) jobs.set(j.id, j);
          else this.anomalies++;
        } catch {
          this.anomalies++;
        }
      }
    }
    const all = [...jobs.values()];
    const newest = (kind: (j: PostJob) => boolean, n: number): PostJob[] =>
      all.filter((j) => isFinished(j) && kind(j)).sort((a, b) => b.updatedAt - a.updatedAt).slice(0, n);
    // Notifications have their own share: many of them must never push a file's finished jobs out.
    const finished = [...newest((j) => j.kind !== 'notify', KEEP_FINISHED), ...newest((j) => j.kind === 'notify', KEEP_FINISHED_NOTICES)];
    const kept = [...all.filter((j) => !isFinished(j)), ...finished].sort((a, b) => a.createdAt - b.createdAt || a.step - b.step);
    mkdirSync(dirname(this.path), { recursive: true });
    atomicWriteFile(this.path, kept.map((j) => `${JSON.stringify(j)}\n`).join(''));
    this.fd = openSync(this.path, 'a');
    return kept;
  }

  /**
   * Appends a job's state and syncs it: a state change is durable before the work it announces starts
   * (a handful of lines per file, never per sample).
   */
  write(job: PostJob): void {
    if (this.fd === null) throw new LiverecError('POST_JOURNAL_CLOSED', 'post-file job journal is not open');
    const line = Buffer.from(`${JSON.stringify(job)}\n`, 'utf8');
    let done = 0;
    try {
      while (done < line.length) done += writeSync(this.fd, line, done);
      fdatasyncSync(this.fd);
    } catch (err) {
      throw new LiverecError('POST_JOURNAL_WRITE', `cannot write ${this.path}: ${(err as Error).message}`, { cause: err });
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
