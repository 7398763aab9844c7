// Crash-safe file replacement: write a temp file, fsync, keep the old file as a backup, then rename over.
import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Replaces `path` with `content` atomically. When `backupPath` is given and `path` exists, the previous
 * content is kept there first. `mode` (less the umask) is the new file's permission from its creation. A crash at any point leaves either the old or the new file, never a torn one.
 */
export function atomicWriteFile(path: string, content: string, backupPath?: string, mode = 0o666): void {
  const suffix = randomBytes(4).toString('hex').toUpperCase().slice(0, 6);
  const tmp = join(dirname(path), `${basename(path, '.json')}.${suffix}.tmp`);
  const backupTmp = `${backupPath}.${suffix}.tmp`;
  try {
    // `mode` is set at creation (before any byte is written): a secret file is never readable by others.
    const fd = openSync(tmp, 'wx', mode);
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (backupPath && existsSync(path)) {
      copyFileSync(path, backupTmp);
      renameSync(backupTmp, backupPath);
    }
    renameSync(tmp, path);
  } catch (err) {
    // A full disk must not leave half-written temp files behind (they would fill it further).
    rmSync(tmp, { force: true });
    if (backupPath) rmSync(backupTmp, { force: true });
    throw err;
  }
}
