// The outbox journal on disk: synchronous appends (so a record is written before the attempt it announces) and ranged reads.
import { closeSync, fdatasync, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { LiverecError } from '../errors.js';
import { encodeRecord, type JournalRecord } from './journal-records.js';
import { scanLines } from './line-reader.js';

export class JournalFile {
  private fd: number | null = null;
  private dirty = false;
  /** Bytes in the file; the next append lands here. */
  size = 0;

  constructor(readonly path: string) {}

  open(): void {
    if (this.fd !== null) return;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      this.fd = openSync(this.path, 'a+');
      this.size = fstatSync(this.fd).size;
    } catch (err) {
      throw new LiverecError('WEBHOOK_JOURNAL_OPEN', `cannot open webhook journal ${this.path}: ${(err as Error).message}`, { cause: err });
    }
  }

  get isOpen(): boolean {
    return this.fd !== null;
  }

  /**
   * Appends one record and returns its offset. Synchronous on purpose: a few µs per line, and the
   * record is in the OS before the caller goes on to send (durable against a process crash; fdatasync
   * on a timer and at close covers the rest).
   */
  append(record: JournalRecord): number {
    if (this.fd === null) throw new LiverecError('WEBHOOK_JOURNAL_CLOSED', 'webhook journal is not open');
    const line = Buffer.from(encodeRecord(record), 'utf8');
    const offset = this.size;
    try {
      let done = 0;
      while (done < line.length) done += writeSync(this.fd, line, done);
    } catch (err) {
      try {
        // A torn line would swallow the next record glued onto it; cut it off.
        ftruncateSync(this.fd, offset);
      } catch {
        // nothing more to do: the next start's compaction drops a torn line
      }
      throw new LiverecError('WEBHOOK_JOURNAL_WRITE', `cannot write webhook journal ${this.path}: ${(err as Error).message}`, { cause: err });
    }
    this.size += line.length;
    this.dirty = true;
    return offset;
  }

  /** Visits complete lines from `from` to the current end; see scanLines. */
  scan(from: number, visit: (line: string, offset: number, end: number) => boolean | void, damaged?: (offset: number, end: number) => void): number {
    if (this.fd === null) throw new LiverecError('WEBHOOK_JOURNAL_CLOSED', 'webhook journal is not open');
    return scanLines(this.fd, from, this.size, visit, damaged);
  }

  /** A background fdatasync is running; the fd must stay open (and unswapped) until it settles. */
  get syncing(): boolean {
    return this.pendingSync !== null;
  }

  private pendingSync: Promise<void> | null = null;

  /** fdatasync off the event loop (a busy disk can take tens of ms); errors only logged by the caller. */
  syncInBackground(): Promise<void> {
    if (this.fd === null || !this.dirty) return Promise.resolve();
    if (this.pendingSync) return this.pendingSync;
    this.dirty = false;
    const fd = this.fd;
    this.pendingSync = new Promise<void>((resolve, reject) => {
      fdatasync(fd, (err) => {
        this.pendingSync = null;
        if (err) {
          this.dirty = true;
          reject(err);
        } else resolve();
      });
    });
    return this.pendingSync;
  }

  /** Waits for a background sync so the fd can be closed or replaced safely. */
  async settle(): Promise<void> {
    await this.pendingSync?.catch(() => undefined);
  }

  sync(): void {
    if (this.fd === null || !this.dirty) return;
    fdatasyncSync(this.fd);
    this.dirty = false;
  }

  /** Atomically swaps in a rewritten journal (already fsynced by the writer) and reopens it for appends. */
  replaceWith(tmpPath: string): void {
    if (this.pendingSync) throw new LiverecError('WEBHOOK_JOURNAL_BUSY', 'webhook journal is being synced; retry the swap later');
    this.close();
    renameSync(tmpPath, this.path);
    try {
      // Make the rename itself durable; best effort because some filesystems refuse fsync on a directory.
      const dir = openSync(dirname(this.path), 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    } catch {
      // ignored: see above
    }
    this.open();
  }

  /** Call settle() first when a background sync may be running. */
  close(): void {
    if (this.fd === null) return;
    if (this.pendingSync) throw new LiverecError('WEBHOOK_JOURNAL_BUSY', 'webhook journal is being synced; await settle() before close()');
    try {
      this.sync();
    } finally {
      closeSync(this.fd);
      this.fd = null;
    }
  }
}
