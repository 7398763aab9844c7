// Which files and sessions are open, on disk under <workdir>/.liverec/open/, so a start after kill -9 can close them.
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RoomEventSnapshot } from '../events/types.js';

export interface FileEntry {
  kind: 'file';
  roomId: number;
  path: string;
  sessionId: string;
  openTime: string;
  snapshot: RoomEventSnapshot;
}

export interface SessionEntry {
  kind: 'session';
  roomId: number;
  sessionId: string;
  snapshot: RoomEventSnapshot;
}

/** The run marker: present while a process records here; a clean stop removes it, so one found at start means a crash. */
export interface RunMarker {
  startedAt: number;
  pid: number;
}

const key = (s: string): string => createHash('sha256').update(resolve(s)).digest('hex').slice(0, 24);
const RUN = 'run.json';
const CLOSED = 'closed.jsonl';

/**
 * One small JSON file per open file and per running session, plus the run marker and the list of files whose
 * FileClosed went out in this run (a handful of writes per file, never per tag).
 *
 * Write-ahead: a file's entry is written by the room thread before the file is created (`fileOpening`), so a
 * kill at any moment leaves either no file or a file the journal names. A file's FileClosed is published first
 * and then recorded as closed (`fileClosed`): a kill between the two is the only way to publish it twice, a
 * window of two small synchronous writes on one thread.
 */
export class OpenJournal {
  readonly dir: string;

  constructor(readonly workDir: string) {
    this.dir = join(workDir, '.liverec', 'open');
  }

  /** Called before the file exists (room thread): recovery will know it whatever happens next. */
  fileOpening(roomId: number, path: string, sessionId: string, openTime: string, snapshot: RoomEventSnapshot): void {
    this.put(`file-${key(path)}.json`, { kind: 'file', roomId, path, sessionId, openTime, snapshot } satisfies FileEntry);
  }

  /** The file's FileClosed was published: recorded as closed (so no recovery publishes it again), entry dropped. */
  fileClosed(path: string): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      appendFileSync(join(this.dir, CLOSED), `${JSON.stringify(resolve(path))}\n`);
    } catch {
      // A full disk: the entry below still goes, which is what matters for the next start.
    }
    this.drop(`file-${key(path)}.json`);
  }

  sessionStarted(roomId: number, sessionId: string, snapshot: RoomEventSnapshot): void {
    this.put(`session-${key(sessionId)}.json`, { kind: 'session', roomId, sessionId, snapshot } satisfies SessionEntry);
  }

  sessionEnded(sessionId: string): void {
    this.drop(`session-${key(sessionId)}.json`);
  }

  /** Every readable entry (unreadable ones are removed and named in `unreadable`). */
  entries(): { files: FileEntry[]; sessions: SessionEntry[]; unreadable: string[] } {
    const out = { files: [] as FileEntry[], sessions: [] as SessionEntry[], unreadable: [] as string[] };
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json') && n !== RUN);
    } catch {
      return out;
    }
    for (const name of names) {
      try {
        const e = JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as FileEntry | SessionEntry;
        if (e.kind === 'file') out.files.push(e);
        else out.sessions.push(e);
      } catch {
        // Written before its file existed and cut by a kill: there is no file behind it.
        out.unreadable.push(name);
        this.drop(name);
      }
    }
    return out;
  }

  /** Files whose FileClosed went out since the run marker was written. */
  closedPaths(): Set<string> {
    try {
      const lines = readFileSync(join(this.dir, CLOSED), 'utf8').split('\n');
      const out = new Set<string>();
      for (const line of lines) {
        try {
          if (line) out.add(JSON.parse(line) as string);
        } catch {
          // A line cut by a kill names nothing.
        }
      }
      return out;
    } catch {
      return new Set();
    }
  }

  /** The marker of the run that ended without a clean stop, or null. */
  previousRun(): RunMarker | null {
    try {
      return JSON.parse(readFileSync(join(this.dir, RUN), 'utf8')) as RunMarker;
    } catch {
      return null;
    }
  }

  /** Called once recovery is done: a new marker (renamed into place, never torn), then a fresh closed list. */
  runStarted(startedAt = Date.now()): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      const tmp = join(this.dir, `${RUN}.${process.pid}.part`);
      writeFileSync(tmp, JSON.stringify({ startedAt, pid: process.pid } satisfies RunMarker));
      renameSync(tmp, join(this.dir, RUN));
      rmSync(join(this.dir, CLOSED), { force: true });
    } catch {
      // Without a marker the next start after a crash closes the journaled files only (no scan).
    }
  }

  /** A clean stop: nothing needs scanning at the next start. */
  cleanStop(): void {
    rmSync(join(this.dir, RUN), { force: true });
    rmSync(join(this.dir, CLOSED), { force: true });
  }

  drop(name: string): void {
    rmSync(join(this.dir, name), { force: true });
  }

  dropFile(path: string): void {
    this.drop(`file-${key(path)}.json`);
  }

  private put(name: string, entry: FileEntry | SessionEntry): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(join(this.dir, name), JSON.stringify(entry));
    } catch {
      // A full disk must not stop the recording (the file cannot be created either).
    }
  }
}
