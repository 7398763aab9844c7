// The post-file job journal: one JSON line per job state change (synced). Read as a stream of lines at start (a
// damaged part is set aside in a file of its own and reported, never fatal) and compacted to the live set then and
// while running, whenever it has grown by a size bound or a day has passed, so it cannot grow without bound.
import { appendFileSync, closeSync, existsSync, fdatasyncSync, fstatSync, mkdirSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { atomicWriteFile } from '../config/atomic-write.js';
import { LiverecError } from '../errors.js';
import { JOB_KINDS, JOB_STATES, isFinished, type PostJob } from './job.js';
import { readLines } from './journal-lines.js';

export const JOBS_JOURNAL_RELATIVE_PATH = join('.liverec', 'post-jobs.jsonl');
/** Finished jobs kept across a compaction, newest first, so the API and a repeated FileClosed still see them. */
export const KEEP_FINISHED = 500;
const KEEP_FINISHED_NOTICES = 200;
/** Compaction while running: once the journal has grown this much past its last compacted size… */
export const COMPACT_GROWTH_BYTES = 8 << 20;
/** …or this long after the last compaction (when anything was appended since). */
export const COMPACT_AGE_MS = 24 * 3600_000;

function isJob(x: unknown): x is PostJob {
  const j = x as PostJob;
  return typeof j === 'object' && j !== null && typeof j.id === 'string' && typeof j.fileId === 'string' &&
    (JOB_KINDS as readonly string[]).includes(j.kind) && (JOB_STATES as readonly string[]).includes(j.state) &&
    typeof j.source === 'string' && Number.isInteger(j.step) && Number.isInteger(j.attempts);
}

/** What choosing the live set needs of a job (a parsed job, or the fields read off its journal line). */
interface JobMeta { id: string; fileId: string; kind: string; state: string; updatedAt: number }

const finished = (j: JobMeta): boolean => j.state === 'done' || j.state === 'done-with-warnings' || j.state === 'failed';

/**
 * The jobs a compaction keeps: every job of a file whose chain has not ended (unfinished jobs and the finished steps
 * before them), and the newest finished ones (notifications apart: many must never push a file's jobs out).
 */
function selectLive<T extends JobMeta>(list: T[]): T[] {
  const open = new Set(list.filter((j) => !finished(j)).map((j) => j.fileId));
  const newest = (kind: (j: T) => boolean, n: number): T[] =>
    list.filter((j) => finished(j) && !open.has(j.fileId) && kind(j)).sort((a, b) => b.updatedAt - a.updatedAt).slice(0, n);
  return [...list.filter((j) => open.has(j.fileId)), ...newest((j) => j.kind !== 'notify', KEEP_FINISHED), ...newest((j) => j.kind === 'notify', KEEP_FINISHED_NOTICES)];
}

export function liveSet(all: Iterable<PostJob>): PostJob[] {
  return selectLive([...all]).sort((a, b) => a.createdAt - b.createdAt || a.step - b.step);
}

/** A journal line kept while reading: its fields for the live set, and where it lies (read and parsed only if kept). */
interface LineRecord extends JobMeta { offset: number; length: number; parsed?: PostJob }

const ID = Buffer.from('{"id":"');
const FILE_ID = Buffer.from('","fileId":"');
const KIND = Buffer.from('","kind":"');
const STATE = Buffer.from('"state":"');
const UPDATED = Buffer.from('"updatedAt":');
/** A string field's value (ASCII: ids, kinds, states) where its name is expected at `at`, and where it ends; or null. */
function textAt(buf: Buffer, at: number, end: number, name: Buffer): [string, number] | null {
  if (at < 0 || at + name.length > end || buf.compare(name, 0, name.length, at, at + name.length) !== 0) return null;
  const from = at + name.length;
  const close = buf.indexOf(0x22, from);
  return close < 0 || close >= end ? null : [buf.toString('latin1', from, close), close];
}

/**
 * The fields of a line as the journal writes it (`{"id":"…",…}`, keys in the order JSON.stringify wrote them),
 * read off its bytes without decoding or parsing it: a long journal is mostly lines a later line supersedes.
 */
function readMeta(buf: Buffer, start: number, end: number): JobMeta | null {
  if (buf[end - 1] !== 0x7d) return null;
  const id = textAt(buf, start, end, ID);
  const fileId = id && textAt(buf, id[1], end, FILE_ID);
  const kind = fileId && textAt(buf, fileId[1], end, KIND);
  if (!kind) return null;
  const s = buf.indexOf(STATE, kind[1]);
  const state = s >= 0 && s < end ? textAt(buf, s, end, STATE) : null;
  const u = state ? buf.indexOf(UPDATED, state[1]) : -1;
  if (!state || u < 0 || u >= end) return null;
  let updatedAt = 0;
  for (let p = u + UPDATED.length; p < end && buf[p]! >= 0x30 && buf[p]! <= 0x39; p++) updatedAt = updatedAt * 10 + buf[p]! - 0x30;
  return { id: id![0], fileId: fileId![0], kind: kind[0], state: state[0], updatedAt };
}

export interface JournalDamage {
  /** Lines that were not a job, and bytes of runs that were no line at all. */
  lines: number;
  bytes: number;
  /** Where they were set aside (null when nothing was). */
  setAside: string | null;
}

export class JobJournal {
  private fd: number | null = null;
  /** Lines that were not a job (a torn last line after a kill), found by the last load. */
  anomalies = 0;
  /** What the last load could not read, and where it was set aside. */
  damage: JournalDamage = { lines: 0, bytes: 0, setAside: null };
  /** Size right after the last compaction, and when it ran. */
  private compactedSize = 0;
  private compactedAt = 0;
  private appended = 0;

  constructor(readonly path: string, private readonly now: () => number = Date.now, private readonly growthBytes = COMPACT_GROWTH_BYTES) {}

  /** Reads every job's last state (streamed), rewrites the file with the live set only, and opens it for appends. */
  load(): PostJob[] {
    const records = new Map<string, LineRecord>();
    this.anomalies = 0;
    this.damage = { lines: 0, bytes: 0, setAside: null };
    mkdirSync(dirname(this.path), { recursive: true });
    const aside = `${this.path.replace(/\.jsonl$/, '')}.damaged-${this.now()}.jsonl`;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flushAside = (): void => {
      if (!pending.length) return;
      appendFileSync(aside, Buffer.concat(pending));
      this.damage.setAside = aside;
      pending = [];
      pendingBytes = 0;
    };
    const setAside = (bytes: Buffer): void => {
      pending.push(bytes, Buffer.from('\n'));
      pendingBytes += bytes.length + 1;
      if (pendingBytes > 1 << 20) flushAside();
    };
    const damagedLine = (line: Buffer): void => {
      this.anomalies++;
      this.damage.lines++;
      this.damage.bytes += line.length + 1;
      setAside(line);
    };
    let pruneAt = 20_000;
    const keep = (r: LineRecord): void => {
      const seen = records.get(r.id);
      // A job ends at most once: a finished state is never undone by a stray line after it.
      if (seen && finished(seen)) return;
      records.set(r.id, r);
      // Memory stays bounded by the live set, however long the journal: old finished jobs go as it is read.
      if (records.size > pruneAt) {
        const live = new Set(selectLive([...records.values()]).map((r) => r.id));
        for (const [id, r] of records) if (finished(r) && !live.has(id)) records.delete(id);
        pruneAt = records.size + 20_000;
      }
    };
    let unreadable = false;
    if (existsSync(this.path)) {
      readLines(this.path, {
        line: (buf, start, end, offset) => {
          const meta = readMeta(buf, start, end);
          if (meta) return keep({ ...meta, offset, length: end - start });
          const line = Buffer.from(buf.subarray(start, end));
          if (line.toString('latin1').trim() === '') return;
          let j: unknown = null;
          try {
            j = JSON.parse(line.toString('utf8'));
          } catch {
            // damaged: set aside below
          }
          if (isJob(j)) keep({ id: j.id, fileId: j.fileId, kind: j.kind, state: j.state, updatedAt: j.updatedAt, offset, length: 0, parsed: j });
          else damagedLine(line);
        },
        damaged: (offset, bytes, head, reason) => {
          this.damage.bytes += bytes;
          if (reason === 'unreadable') {
            unreadable = true;
            return;
          }
          this.anomalies++;
          setAside(Buffer.from(JSON.stringify({ setAside: reason, offset, bytes, head: head.toString('base64') })));
        },
      });
    }
    // Only the lines kept are parsed; one that does not parse (bytes torn inside it) is set aside too.
    const jobs: PostJob[] = [];
    const fd = unreadable || records.size === 0 ? null : openSync(this.path, 'r');
    try {
      for (const r of selectLive([...records.values()])) {
        if (r.parsed) {
          jobs.push(r.parsed);
          continue;
        }
        const line = Buffer.alloc(r.length);
        let j: unknown = null;
        try {
          readSync(fd!, line, 0, r.length, r.offset);
          j = JSON.parse(line.toString('utf8'));
        } catch {
          // set aside below
        }
        if (isJob(j)) jobs.push(j);
        else damagedLine(line);
      }
    } finally {
      if (fd !== null) closeSync(fd);
    }
    flushAside();
    if (unreadable) {
      // The rest could not be read: the whole file is kept aside as it is, the jobs read so far go on.
      const whole = `${this.path.replace(/\.jsonl$/, '')}.unreadable-${this.now()}.jsonl`;
      renameSync(this.path, whole);
      this.damage.setAside = whole;
    }
    const kept = liveSet(jobs);
    this.rewrite(kept);
    return kept;
  }

  /** Replaces the journal with `jobs` (atomically) and reopens it for appends. */
  rewrite(jobs: PostJob[]): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    atomicWriteFile(this.path, jobs.map((j) => `${JSON.stringify(j)}\n`).join(''));
    this.fd = openSync(this.path, 'a');
    this.compactedSize = fstatSync(this.fd).size;
    this.compactedAt = this.now();
    this.appended = 0;
  }

  /** Whether the journal has grown enough (by size, or by age with anything appended) to be compacted now. */
  get wantsCompaction(): boolean {
    if (this.fd === null || this.appended === 0) return false;
    return this.appended > Math.max(this.growthBytes, this.compactedSize) || this.now() - this.compactedAt > COMPACT_AGE_MS;
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
      this.appended += line.length;
    } catch (err) {
      throw new LiverecError('POST_JOURNAL_WRITE', `cannot write ${this.path}: ${(err as Error).message}`, { cause: err });
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
