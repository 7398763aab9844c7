// Single-writer guard for the journal: a lock file naming its owner (pid, process start time, boot), taken over when stale.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { LiverecError } from '../errors.js';

/*
 * A pid alone is not an identity: after `kill -9` in a container liverec restarts as PID 1 again, and on a host
 * a crashed owner's pid may now belong to any other process. So the lock names the owner by pid + the kernel's
 * start time of that process + the boot id, and a lock is live only when all three still match (Linux /proc).
 * Locks held by this process are known from a registry, so a file naming our own pid but not in the registry
 * is a previous incarnation's. Without /proc (macOS, Windows) the pid check is all there is.
 */

interface Owner {
  pid: number;
  start?: string | null;
  boot?: string | null;
  token?: string;
}

/** Lock files held by this process (resolved paths). */
const heldHere = new Set<string>();

const readText = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** Field 22 of /proc/<pid>/stat: start time in clock ticks after boot (the command name may hold spaces or parens). */
function startTimeOf(pid: number): string | null {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return null;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
}

const bootId = (): string | null => readText('/proc/sys/kernel/random/boot_id')?.trim() ?? null;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseOwner(text: string | null): Owner | null {
  if (text === null) return null;
  try {
    const o = JSON.parse(text) as Owner;
    if (o && typeof o === 'object' && Number.isSafeInteger(o.pid) && o.pid > 0) return o;
  } catch {
    // older liverec wrote the bare pid
  }
  const pid = Number.parseInt(text, 10);
  return Number.isSafeInteger(pid) && pid > 0 ? { pid } : null;
}

/** Why the owner still holds the lock, or null when the lock is stale. */
function liveOwner(path: string, owner: Owner | null): string | null {
  if (!owner) return null;
  if (owner.pid === process.pid) return heldHere.has(path) ? 'another outbox in this process' : null;
  if (!alive(owner.pid)) return null;
  const start = startTimeOf(owner.pid);
  if (start !== null) {
    if (owner.start !== undefined) {
      if (owner.start !== start || (owner.boot ?? null) !== bootId()) return null; // the pid was reused
    } else {
      // A lock in the old pid-only format: live only if that pid is still a Node process.
      const cmd = readText(`/proc/${owner.pid}/cmdline`) ?? '';
      if (!/node|liverec/i.test(cmd)) return null;
    }
  }
  return `process ${owner.pid}`;
}

/** Which live process holds the lock file at `path` ("process 123"), or null: a read-only look, for a preflight. */
export function lockHolder(path: string): string | null {
  const key = resolve(path);
  return liveOwner(key, parseOwner(readText(key)));
}

/**
 * Two outboxes appending to and compacting one journal would lose or double-send entries, so the
 * second one fails with WEBHOOK_JOURNAL_LOCKED. A lock left by a crashed process is taken over.
 */
export class JournalLock {
  private held = false;
  private readonly key: string;

  constructor(readonly path: string) {
    this.key = resolve(path);
  }

  acquire(): void {
    if (this.held) return;
    const me: Owner = { pid: process.pid, start: startTimeOf(process.pid), boot: bootId(), token: randomUUID() };
    for (let tries = 0; tries < 3; tries++) {
      try {
        const fd = openSync(this.path, 'wx');
        let failure: unknown = null;
        try {
          writeSync(fd, `${JSON.stringify(me)}\n`);
        } catch (err) {
          // A full disk must not stop the start: the empty file still marks the journal as taken for this run.
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') failure = err;
        }
        closeSync(fd);
        if (failure) {
          rmSync(this.path, { force: true });
          throw failure;
        }
        this.held = true;
        heldHere.add(this.key);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const who = liveOwner(this.key, parseOwner(readText(this.path)));
      if (who) throw new LiverecError('WEBHOOK_JOURNAL_LOCKED', `webhook journal ${this.path} is in use by ${who}`);
      rmSync(this.path, { force: true });
    }
    throw new LiverecError('WEBHOOK_JOURNAL_LOCKED', `could not take the webhook journal lock ${this.path}`);
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    heldHere.delete(this.key);
    rmSync(this.path, { force: true });
  }
}
