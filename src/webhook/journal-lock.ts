// Single-writer guard for the journal: a pid file next to it, taken over only when its owner is gone.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { LiverecError } from '../errors.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Two outboxes appending to and compacting one journal would lose or double-send entries, so the
 * second one fails with WEBHOOK_JOURNAL_LOCKED. A lock left by a crashed process is taken over.
 */
export class JournalLock {
  private held = false;

  constructor(readonly path: string) {}

  acquire(): void {
    if (this.held) return;
    for (let tries = 0; tries < 2; tries++) {
      try {
        const fd = openSync(this.path, 'wx');
        try {
          writeSync(fd, `${process.pid}\n`);
        } finally {
          closeSync(fd);
        }
        this.held = true;
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      let owner = NaN;
      try {
        owner = Number.parseInt(readFileSync(this.path, 'utf8'), 10);
      } catch {
        // vanished or unreadable: treat as stale
      }
      if (Number.isSafeInteger(owner) && owner > 0 && alive(owner)) {
        const who = owner === process.pid ? 'another outbox in this process' : `process ${owner}`;
        throw new LiverecError('WEBHOOK_JOURNAL_LOCKED', `webhook journal ${this.path} is in use by ${who}`);
      }
      rmSync(this.path, { force: true });
    }
    throw new LiverecError('WEBHOOK_JOURNAL_LOCKED', `could not take the webhook journal lock ${this.path}`);
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    rmSync(this.path, { force: true });
  }
}
