// Which files and sessions are open, on disk under <workdir>/.liverec/open/, so a start after kill -9 can close them.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { RecorderEvent, RoomEventSnapshot } from '../events/types.js';
import { formatLocal } from '../time.js';
import { finalizeOrphanHls } from '../hls/orphan.js';
import { finalizeOrphanFlv } from './orphan-file.js';

interface FileEntry {
  kind: 'file';
  roomId: number;
  path: string;
  sessionId: string;
  openTime: string;
  snapshot: RoomEventSnapshot;
}

interface SessionEntry {
  kind: 'session';
  roomId: number;
  sessionId: string;
  snapshot: RoomEventSnapshot;
}

const key = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 24);

/**
 * One small JSON file per open file and per running session, written when it opens and removed when it
 * closes (a handful of writes per file, never per tag). Whatever is left at start was open when the
 * process died: `recover` finalises those files and emits their FileClosed, then the SessionEnded.
 */
export class OpenJournal {
  private readonly dir: string;

  constructor(private readonly workDir: string) {
    this.dir = join(workDir, '.liverec', 'open');
  }

  fileOpened(roomId: number, path: string, sessionId: string, openTime: string, snapshot: RoomEventSnapshot): void {
    this.put(`file-${key(path)}`, { kind: 'file', roomId, path, sessionId, openTime, snapshot } satisfies FileEntry);
  }

  fileClosed(path: string): void {
    this.drop(`file-${key(path)}`);
  }

  sessionStarted(roomId: number, sessionId: string, snapshot: RoomEventSnapshot): void {
    this.put(`session-${key(sessionId)}`, { kind: 'session', roomId, sessionId, snapshot } satisfies SessionEntry);
  }

  sessionEnded(sessionId: string): void {
    this.drop(`session-${key(sessionId)}`);
  }

  /** Closes what a previous process left open: FileClosed for each file (cut to its last whole tag), then SessionEnded. */
  recover(emit: (event: RecorderEvent) => void, warn: (fields: Record<string, unknown>, msg: string) => void): number {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return 0;
    }
    const entries: (FileEntry | SessionEntry)[] = [];
    for (const name of names) {
      try {
        entries.push(JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as FileEntry | SessionEntry);
      } catch {
        warn({ entry: name }, 'unreadable open-file journal entry dropped');
      }
      rmSync(join(this.dir, name), { force: true });
    }
    const now = formatLocal();
    const ended = (s: RoomEventSnapshot): RoomEventSnapshot => ({ ...s, Recording: false, DanmakuConnected: false });
    for (const f of entries) {
      if (f.kind !== 'file') continue;
      const done = finalizeOrphanFlv(f.path) ?? finalizeOrphanHls(f.path);
      if (!done) continue;
      warn({ roomId: f.roomId, path: f.path, truncatedBytes: done.truncatedBytes }, 'closed a file left open by a previous run');
      emit({ EventType: 'FileClosed', EventTimestamp: now, EventData: {
        ...ended(f.snapshot), SessionId: f.sessionId, RelativePath: relative(this.workDir, f.path).split('\\').join('/'),
        FileOpenTime: f.openTime, FileCloseTime: now, FileSize: done.size, Duration: done.duration } });
    }
    for (const s of entries) {
      if (s.kind === 'session') emit({ EventType: 'SessionEnded', EventTimestamp: now, EventData: { ...ended(s.snapshot), SessionId: s.sessionId } });
    }
    return entries.length;
  }

  private put(name: string, entry: FileEntry | SessionEntry): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(join(this.dir, `${name}.json`), JSON.stringify(entry));
    } catch {
      // A full disk must not stop the recording; the entry is only needed after a crash.
    }
  }

  private drop(name: string): void {
    rmSync(join(this.dir, `${name}.json`), { force: true });
  }
}
