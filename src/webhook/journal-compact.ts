// Journal compaction: folds attempt lines into their message lines and drops finished messages, streaming both passes.
import { appendFileSync, closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { LiverecError } from '../errors.js';
import type { EventType } from '../events/types.js';
import type { JournalFile } from './journal-file.js';
import { decodeRecord, encodeRecord, type MsgRecord, type TargetState } from './journal-records.js';
import { MAX_ATTEMPTS } from './retry-policy.js';

/** A target whose last allowed attempt was cut (process stopped mid-attempt): it is given up. */
export interface ExpiredTarget {
  m: string;
  v: 1 | 2;
  t: EventType;
  at: number;
  url: string;
  i: number;
  state: TargetState;
}

export interface CompactResult {
  kept: number;
  dropped: number;
  anomalies: number;
  bytesBefore: number;
  bytesAfter: number;
  expired: ExpiredTarget[];
  /** URLs that still have unfinished targets. */
  urls: Set<string>;
  /** The given cursors mapped into the new file (same order). */
  cursors: number[];
  /** Where unreadable lines (and notes of over-long runs) were set aside, or null. */
  setAside: string | null;
}

const MSG_PREFIX = '{"r":"msg"';
const FLUSH_BYTES = 256 * 1024;

/** Folds the state found in attempt lines on top of the state a message line already carries. */
function merge(base: TargetState, fold: TargetState | undefined): TargetState {
  if (!fold) return base;
  return {
    n: Math.max(base.n, fold.n),
    last: fold.last ?? base.last,
    st: fold.st ?? base.st,
    err: fold.err ?? base.err,
    fin: fold.fin ?? base.fin,
  };
}

/**
 * Rewrites the journal so it holds only unfinished messages, each carrying its folded attempt state.
 * `isLive` names targets loaded in memory right now (never expired here: their last attempt is running).
 * Memory: pass 1 keeps one small state object per target that has attempt lines (no bodies); pass 2
 * streams message lines one at a time. Order is preserved, so spill cursors can be remapped.
 */
export function compactJournal(
  journal: JournalFile,
  cursors: number[] = [],
  isLive: (m: string, i: number) => boolean = () => false,
): CompactResult {
  if (journal.syncing) throw new LiverecError('WEBHOOK_JOURNAL_BUSY', 'webhook journal is being synced; compact later');
  let anomalies = 0;
  const fold = new Map<string, Map<number, TargetState>>();
  const bytesBefore = journal.size;
  // Unreadable lines are kept apart in a file of their own (never silently lost), and reported.
  const asidePath = `${journal.path.replace(/\.jsonl$/, '')}.damaged-${Date.now()}.jsonl`;
  let aside: string | null = null;
  const setAside = (text: string): void => {
    appendFileSync(asidePath, `${text}\n`);
    aside = asidePath;
  };
  const scannedTo = journal.scan(0, (line) => {
    if (line.startsWith(MSG_PREFIX)) return;
    const rec = decodeRecord(line);
    if (!rec || rec.r === 'msg') {
      if (!rec && line.trim() !== '') {
        anomalies++;
        setAside(line);
      }
      return;
    }
    let targets = fold.get(rec.m);
    if (!targets) fold.set(rec.m, (targets = new Map()));
    const st = targets.get(rec.i) ?? { n: 0 };
    st.n = Math.max(st.n, rec.n);
    st.last = rec.at;
    if (rec.r === 'res') {
      st.st = rec.st;
      st.err = rec.err;
      if (rec.fin) st.fin = rec.fin;
    }
    targets.set(rec.i, st);
  }, (offset, end) => {
    anomalies++;
    setAside(JSON.stringify({ setAside: 'too-long', offset, bytes: end - offset }));
  });
  if (scannedTo < bytesBefore) anomalies++; // torn last line

  const tmpPath = `${journal.path}.tmp`;
  const out = openSync(tmpPath, 'w');
  let pending: string[] = [];
  let pendingBytes = 0;
  let written = 0;
  const flush = (): void => {
    if (!pending.length) return;
    const buf = Buffer.from(pending.join(''), 'utf8');
    let done = 0;
    while (done < buf.length) done += writeSync(out, buf, done);
    pending = [];
    pendingBytes = 0;
  };
  const order = cursors.map((c, idx) => ({ c, idx })).sort((a, b) => a.c - b.c);
  const mapped = new Array<number>(cursors.length);
  let nextCursor = 0;
  const result: CompactResult = { kept: 0, dropped: 0, anomalies, bytesBefore, bytesAfter: 0, expired: [], urls: new Set(), cursors: mapped, setAside: aside };

  try {
    journal.scan(0, (line, offset) => {
      if (!line.startsWith(MSG_PREFIX)) return;
      const rec = decodeRecord(line);
      if (!rec || rec.r !== 'msg') {
        result.anomalies++;
        setAside(line);
        result.setAside = aside;
        return;
      }
      const folded = fold.get(rec.m);
      let open = 0;
      const s = rec.u.map((url, i): TargetState | null => {
        const base = rec.s ? rec.s[i] : { n: 0 };
        if (base === null) return null;
        const st = merge(base, folded?.get(i));
        if (st.fin) return null;
        // A live target at its last attempt is in flight right now, not lost.
        if (st.n >= MAX_ATTEMPTS && !isLive(rec.m, i)) {
          result.expired.push({ m: rec.m, v: rec.v, t: rec.t, at: rec.at, url, i, state: st });
          return null;
        }
        open++;
        result.urls.add(url);
        return st;
      });
      if (open === 0) {
        result.dropped++;
        return;
      }
      const newOffset = written + pendingBytes;
      while (nextCursor < order.length && order[nextCursor].c <= offset) mapped[order[nextCursor++].idx] = newOffset;
      const next: MsgRecord = { r: 'msg', m: rec.m, v: rec.v, t: rec.t, at: rec.at, u: rec.u, b: rec.b, s };
      const text = encodeRecord(next);
      const bytes = Buffer.byteLength(text);
      pending.push(text);
      pendingBytes += bytes;
      result.kept++;
      if (pendingBytes >= FLUSH_BYTES) {
        written += pendingBytes;
        flush();
      }
    });
    written += pendingBytes;
    flush();
    fsyncSync(out);
  } catch (err) {
    // A full disk: the journal itself is untouched; the half-written copy must not take more space.
    closeSync(out);
    rmSync(tmpPath, { force: true });
    throw err;
  }
  closeSync(out);
  while (nextCursor < order.length) mapped[order[nextCursor++].idx] = written;
  result.bytesAfter = written;
  journal.replaceWith(tmpPath);
  return result;
}
