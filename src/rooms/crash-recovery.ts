// At start: closes what a run killed mid-write left open (journaled files, then unjournaled recent ones), each FileClosed once.
import type { EventSource } from '../events/source.js';
import { rmSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { RecorderEvent, RoomEventSnapshot } from '../events/types.js';
import { finalizeOrphanHls } from '../hls/orphan.js';
import { formatLocal } from '../time.js';
import { journaledFileClosed } from '../webhook/journaled-file-closed.js';
import type { OpenJournal } from './open-journal.js';
import { type FinalizedFile, finalizeOrphanFlv } from './orphan-file.js';
import { recentMediaFiles, snapshotFromFile } from './orphan-scan.js';

type Warn = (fields: Record<string, unknown>, msg: string) => void;

/** Shorter than this, a file holds no whole header (FLV 13 bytes, a TS packet, an ftyp box): nothing to keep. */
const HEADERLESS = 13;

/**
 * Cuts a torn tail and rewrites the file's metadata; null when the file is missing or no recording. A file killed
 * between its creation and its first write holds nothing playable: it is removed and reported as closed, size 0,
 * so its FileOpening still gets its FileClosed.
 */
export function finalizeOrphan(path: string): FinalizedFile | null {
  const done = finalizeOrphanFlv(path) ?? finalizeOrphanHls(path);
  if (done) return done;
  try {
    if (!/\.(flv|mp4|ts)$/i.test(path) || statSync(path).size >= HEADERLESS) return null;
    rmSync(path, { force: true });
    return { size: 0, duration: 0, truncatedBytes: 0, removed: true };
  } catch {
    return null;
  }
}

const ended = (s: RoomEventSnapshot): RoomEventSnapshot => ({ ...s, Recording: false, DanmakuConnected: false });

/** The FileClosed of a file closed on another thread's behalf. */
export function orphanFileClosed(workDir: string, path: string, done: FinalizedFile, f: { sessionId: string; openTime: string; snapshot: RoomEventSnapshot; source?: EventSource }): RecorderEvent {
  const now = formatLocal();
  return { EventType: 'FileClosed', EventTimestamp: now, EventData: {
    ...ended(f.snapshot), SessionId: f.sessionId, RelativePath: relative(workDir, path).split('\\').join('/'),
    FileOpenTime: f.openTime, FileCloseTime: now, FileSize: done.size, Duration: done.duration, ...(f.source ? { Source: f.source } : {}) } };
}

/**
 * Closes every file the journal names, then (after a run that did not stop cleanly) every recording in the work
 * directory written during that run that no closed record covers; emits each one's FileClosed and records it as
 * closed right away, so a kill during recovery never sends one twice. Then SessionEnded for the open sessions, and
 * a new run marker. Returns how many files were closed.
 */
export function recoverAfterCrash(journal: OpenJournal, emit: (event: RecorderEvent) => void, warn: Warn): number {
  const workDir = journal.workDir;
  const closed = journal.closedPaths();
  const previous = journal.previousRun();
  const { files, sessions, unreadable } = journal.entries();
  if (unreadable.length > 0) warn({ entries: unreadable }, 'unreadable open-file journal entries dropped (cut before their file existed)');
  let count = 0;
  // Read only when needed: a file whose FileClosed was published but not yet recorded as closed when the kill came.
  let published: Set<string> | null = null;
  const close = (path: string, f: { roomId: number; sessionId: string; openTime: string; snapshot: RoomEventSnapshot }, journaled: boolean): void => {
    const key = resolve(path);
    if (closed.has(key)) {
      journal.dropFile(path); // its FileClosed went out before the kill
      return;
    }
    closed.add(key);
    const done = finalizeOrphan(path);
    if (!done) {
      journal.dropFile(path);
      return;
    }
    const relativePath = relative(workDir, path).split('\\').join('/');
    if ((published ??= journaledFileClosed(workDir)).has(relativePath)) {
      journal.fileClosed(path);
      return;
    }
    warn({ roomId: f.roomId, path, truncatedBytes: done.truncatedBytes, metadata: done.metadata ?? false, removed: done.removed ?? false, journaled },
      done.removed ? 'removed an empty file left by a previous run' : 'closed a file left open by a previous run');
    emit(orphanFileClosed(workDir, path, done, f));
    journal.fileClosed(path);
    count++;
  };
  for (const f of files) close(f.path, f, true);
  if (previous) {
    for (const path of recentMediaFiles(workDir, previous.startedAt)) {
      if (closed.has(resolve(path))) continue;
      const snapshot = snapshotFromFile(path);
      const session = sessions.filter((s) => s.roomId === snapshot.RoomId);
      let openTime: string;
      try {
        const st = statSync(path);
        openTime = formatLocal(st.birthtimeMs > 0 ? st.birthtime : st.mtime);
      } catch {
        continue;
      }
      close(path, { roomId: snapshot.RoomId, sessionId: session.length === 1 ? session[0]!.sessionId : '', openTime, snapshot }, false);
    }
  }
  const now = formatLocal();
  for (const s of sessions) {
    emit({ EventType: 'SessionEnded', EventTimestamp: now, EventData: { ...ended(s.snapshot), SessionId: s.sessionId } });
    journal.sessionEnded(s.sessionId);
  }
  journal.runStarted();
  return count;
}
