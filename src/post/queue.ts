// The durable post-file job queue: FileClosed → journaled jobs → a bounded pool of runners → PostProcessed.
import { redactErrorText } from '../log/redact.js';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { EventBus } from '../events/bus.js';
import type { FileClosedData, RecorderEvent } from '../events/types.js';
import { logger as rootLogger, type Logger } from '../log/logger.js';
import { formatLocal } from '../time.js';
import { isFinished, type PostJob } from './job.js';
import { JobJournal, JOBS_JOURNAL_RELATIVE_PATH, liveSet } from './journal.js';
import { planJobs, type PostSettings } from './plan.js';
import type { NoticeJobParams } from '../notify/notify-job.js';
import { DEFAULT_RETRY, FINAL_ERROR_CODES, type RetryPolicy } from './retry.js';
import type { JobRunner } from './runner.js';

export interface PostQueueOptions {
  workDir: string;
  /** The settings in effect for a room when its file closes. */
  settings: (roomId: number) => PostSettings & { PostJobConcurrency: number };
  runner: JobRunner;
  /** Where PostProcessed goes (the recorder's bus); FileClosed is read from the bus passed to attach(). */
  emit: (event: RecorderEvent) => void;
  retry?: RetryPolicy;
  logger?: Logger;
}

const fileIdOf = (relativePath: string): string => createHash('sha1').update(relativePath).digest('hex').slice(0, 16);
/** Finished notifications kept in memory (and listed): they are many and small, and nothing later depends on them. */
const KEEP_FINISHED_NOTICES = 200;

export class PostQueue {
  private readonly journal: JobJournal;
  private readonly jobs = new Map<string, PostJob>();
  private readonly running = new Map<string, AbortController>();
  private readonly log: Logger;
  private readonly retry: RetryPolicy;
  private started = false;
  private timer: NodeJS.Timeout | null = null;
  private detach: (() => void) | null = null;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: PostQueueOptions) {
    this.journal = new JobJournal(join(options.workDir, JOBS_JOURNAL_RELATIVE_PATH));
    this.log = options.logger ?? rootLogger().child({ component: 'post' });
    this.retry = options.retry ?? DEFAULT_RETRY;
  }

  /** Loads the journal; jobs a stop or a kill cut short run again (their attempt counted), then the queue runs. */
  start(): void {
    if (this.started) return;
    for (const job of this.journal.load()) {
      if (job.state === 'running') Object.assign(job, { state: 'retrying', dueAt: 0, error: job.error ?? 'interrupted by a restart' });
      this.jobs.set(job.id, job);
    }
    const damage = this.journal.damage;
    if (damage.setAside) {
      this.log.warn({ code: 'POST_JOURNAL_DAMAGED', lines: damage.lines, bytes: damage.bytes, setAside: damage.setAside },
        'part of the post-file job journal could not be read; it was set aside and the service starts with the rest');
    } else if (this.journal.anomalies) this.log.warn({ code: 'POST_JOURNAL_ANOMALY', lines: this.journal.anomalies }, 'unreadable lines in the post-file job journal were dropped');
    this.started = true;
    const pending = [...this.jobs.values()].filter((j) => !isFinished(j)).length;
    this.log.info({ journal: this.journal.path, pending }, 'post-file job queue started');
    this.pump();
  }

  attach(bus: EventBus): () => void {
    const off = bus.on((e) => {
      if (e.EventType === 'FileClosed') this.enqueue(e.EventData);
    });
    this.detach = off;
    return off;
  }

  /** Journals the jobs a closed file's settings ask for (synchronously, before FileClosed is recorded as sent). */
  enqueue(file: FileClosedData): PostJob[] {
    const fileId = fileIdOf(file.RelativePath);
    // A FileClosed repeated after a crash must not run a file's jobs twice.
    if ([...this.jobs.values()].some((j) => j.fileId === fileId)) return [];
    const s = this.options.settings(file.RoomId);
    const planned = planJobs(s, file.RelativePath);
    const now = Date.now();
    const source = join(this.options.workDir, file.RelativePath);
    const jobs = planned.map((p, step): PostJob => ({
      id: `${fileId}:${p.kind}`, fileId, kind: p.kind, step, roomId: file.RoomId, source, params: p.params,
      state: 'pending', attempts: 0, createdAt: now, updatedAt: now, dueAt: 0, error: null, output: null, file,
    }));
    for (const job of jobs) this.save(job);
    if (jobs.length) this.log.info({ roomId: file.RoomId, path: file.RelativePath, jobs: jobs.map((j) => j.kind) }, 'post-file jobs queued');
    this.pump();
    return jobs;
  }

  /**
   * Journals one notification per target (each its own one-step chain, so one target's failure never resends to
   * the others): sent off the caller, retried with the queue's backoff, listed with the other jobs.
   */
  enqueueNotice(roomId: number | null, targets: NoticeJobParams[]): PostJob[] {
    const now = Date.now();
    const fileId = `notice-${now.toString(36)}-${randomBytes(4).toString('hex')}`;
    const jobs = targets.map((params, i): PostJob => ({
      id: `${fileId}:notify:${i}`, fileId, kind: 'notify', step: 0, roomId: roomId ?? 0, source: '', params: { ...params },
      state: 'pending', attempts: 0, createdAt: now, updatedAt: now, dueAt: 0, error: null, output: null, file: null,
    }));
    for (const job of jobs) this.save(job);
    this.pump();
    return jobs;
  }

  /** Journals one clip (src/clips/) as its own one-step chain: it waits for a free runner like any file step. */
  enqueueClip(roomId: number, source: string, params: Record<string, string | boolean | number>): PostJob {
    const now = Date.now();
    const fileId = `clip-${now.toString(36)}-${randomBytes(4).toString('hex')}`;
    const job: PostJob = {
      id: `${fileId}:clip`, fileId, kind: 'clip', step: 0, roomId, source, params: { ...params },
      state: 'pending', attempts: 0, createdAt: now, updatedAt: now, dueAt: 0, error: null, output: null, file: null,
    };
    this.save(job);
    this.pump();
    return job;
  }

  private save(job: PostJob): void {
    this.jobs.set(job.id, job);
    try {
      this.journal.write(job);
      if (this.journal.wantsCompaction) this.compact();
    } catch (err) {
      // The job still runs in this process; only its resumption after a crash is at risk.
      this.log.error({ err, job: job.id }, 'post-file job journal write failed');
    }
  }

  /** Rewrites the journal with the live set, and forgets (in memory too) the finished jobs it leaves out. */
  private compact(): void {
    const kept = liveSet(this.jobs.values());
    this.journal.rewrite(kept);
    const ids = new Set(kept.map((j) => j.id));
    for (const [id, j] of this.jobs) if (!ids.has(id) && isFinished(j)) this.jobs.delete(id);
    this.log.info({ journal: this.journal.path, jobs: kept.length }, 'post-file job journal compacted');
  }

  private update(job: PostJob, change: Partial<PostJob>): void {
    this.save({ ...job, ...change, updatedAt: Date.now() });
  }

  private chain(fileId: string): PostJob[] {
    return [...this.jobs.values()].filter((j) => j.fileId === fileId).sort((a, b) => a.step - b.step);
  }

  /** Starts every job that may run now, up to the concurrency limit; arms a timer for the next retry. */
  private pump(): void {
    if (!this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const now = Date.now();
    let nextDue = Infinity;
    const limit = Math.max(1, this.options.settings(0).PostJobConcurrency || 1);
    // Notifications are small network calls: they never wait behind a long remux, nor count against its limit.
    let busy = [...this.running.keys()].filter((id) => this.jobs.get(id)?.kind !== 'notify').length;
    for (const job of [...this.jobs.values()].sort((a, b) => a.createdAt - b.createdAt || a.step - b.step)) {
      if (isFinished(job) || this.running.has(job.id)) continue;
      if (job.kind !== 'notify' && this.chain(job.fileId).some((j) => j.step < job.step && !isFinished(j))) continue;
      if (job.dueAt > now) {
        nextDue = Math.min(nextDue, job.dueAt);
        continue;
      }
      if (job.kind !== 'notify') {
        if (busy >= limit) continue;
        busy++;
      }
      this.run(job);
    }
    if (nextDue !== Infinity) {
      this.timer = setTimeout(() => this.pump(), Math.max(10, nextDue - now));
      this.timer.unref();
    }
    if (this.running.size === 0 && ![...this.jobs.values()].some((j) => !isFinished(j) && j.dueAt <= now)) {
      for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  /** The file an earlier step left for this one (the MP4 after a remux), else the recording (also after a partial remux). */
  private inputOf(job: PostJob): string {
    const remux = this.chain(job.fileId).find((j) => j.kind === 'remux' && j.step < job.step && j.state === 'done' && j.output);
    return remux?.output ?? job.source;
  }

  private run(queued: PostJob): void {
    const abort = new AbortController();
    this.running.set(queued.id, abort);
    const job: PostJob = { ...queued, state: 'running', attempts: queued.attempts + 1, updatedAt: Date.now() };
    this.save(job);
    const log = this.log.child({ roomId: job.roomId, job: job.id, kind: job.kind });
    log.info({ attempt: job.attempts, path: job.file?.RelativePath, target: job.file ? undefined : job.params.target }, `post-file job ${job.kind} started`);
    this.options.runner.run(job, { input: this.inputOf(job), workDir: this.options.workDir, signal: abort.signal, log }).then(
      (result) => {
        this.running.delete(job.id);
        if (!this.started) return;
        if (result.warning) {
          log.warn({ code: 'POST_JOB_WARNINGS', output: result.output, skipped: result.skipped }, `post-file job ${job.kind} done with warnings: ${result.warning}`);
          this.update(job, { state: 'done-with-warnings', error: result.warning, output: result.output ?? null, dueAt: 0, skipped: result.skipped ?? null });
        } else {
          log.info({ output: result.output }, `post-file job ${job.kind} done`);
          this.update(job, { state: 'done', error: null, output: result.output ?? null, dueAt: 0 });
        }
        this.afterEnd(job.fileId);
      },
      (err: unknown) => {
        this.running.delete(job.id);
        // A stop cut the attempt: the journal still says running, so the next start runs it again.
        if (!this.started) return;
        // Every job's error text (notification, upload, command, remux) passes the one redaction rule before the
        // journal, GET /api/jobs, PostProcessed and the log see it; the job itself cut its own known secrets first.
        const message = redactErrorText(err);
        const code = (err as { code?: unknown })?.code;
        const final = job.attempts >= this.retry.maxAttempts || (typeof code === 'string' && FINAL_ERROR_CODES.has(code));
        const dueAt = final ? 0 : Date.now() + this.retry.delayMs(job.attempts);
        log[final ? 'error' : 'warn']({ err: { message, ...(typeof code === 'string' ? { code } : {}) }, attempt: job.attempts, final }, `post-file job ${job.kind} failed${final ? '' : '; will retry'}`);
        this.update(job, { state: final ? 'failed' : 'retrying', error: message, dueAt });
        if (final) this.afterEnd(job.fileId);
      },
    ).finally(() => this.pump());
  }

  /** When a file's last job ends: one PostProcessed with every job's outcome. */
  private afterEnd(fileId: string): void {
    const chain = this.chain(fileId);
    if (!chain.every(isFinished)) return;
    const file = chain[0]!.file;
    if (!file) return this.pruneNotices();
    const rel = (p: string | null): string | null => (p === null ? null : p.startsWith(this.options.workDir) ? p.slice(this.options.workDir.length).replace(/^[\\/]+/, '') : p);
    this.options.emit({
      EventType: 'PostProcessed',
      EventTimestamp: formatLocal(),
      EventData: {
        ...file,
        Succeeded: chain.every((j) => j.state === 'done'),
        OutputPath: rel(chain.find((j) => j.kind === 'remux' && j.state === 'done')?.output ?? null) ?? file.RelativePath,
        Jobs: chain.map((j) => ({ Kind: j.kind, State: j.state as 'done' | 'done-with-warnings' | 'failed', Attempts: j.attempts, Error: j.error, Output: rel(j.output),
          Skipped: j.skipped ?? null })),
      },
    });
  }

  private pruneNotices(): void {
    const done = [...this.jobs.values()].filter((j) => j.kind === 'notify' && isFinished(j)).sort((a, b) => b.updatedAt - a.updatedAt);
    for (const j of done.slice(KEEP_FINISHED_NOTICES)) this.jobs.delete(j.id);
  }

  list(): PostJob[] {
    return [...this.jobs.values()].sort((a, b) => b.createdAt - a.createdAt || a.step - b.step);
  }

  /** Paths (absolute) whose jobs have not all ended: retention must not touch them. */
  busyPaths(): Set<string> {
    const out = new Set<string>();
    for (const j of this.jobs.values()) if (!isFinished(j) && (j.file || j.kind === 'clip')) out.add(j.source);
    return out;
  }

  /** Resolves when nothing runs and nothing is due (tests, a graceful stop). */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.pump();
    });
  }

  /** Stops scheduling and cuts running attempts; they stay `running` in the journal and resume at the next start. */
  async close(): Promise<void> {
    this.detach?.();
    if (!this.started) return;
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    for (const a of this.running.values()) a.abort();
    const deadline = Date.now() + 5000;
    while (this.running.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    this.journal.close();
    for (const w of this.idleWaiters.splice(0)) w();
  }
}
