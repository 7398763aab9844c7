// The checks a work directory passes before `run` or `portable` writes anything in it, each failure with its own message.
import { accessSync, constants, existsSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { JOURNAL_RELATIVE_PATH } from '../webhook/outbox.js';
import { lockHolder } from '../webhook/journal-lock.js';

/**
 * Why `dir` cannot be a work directory, or null. `create`: a missing one is made later (portable), if its parent
 * allows. `beside`: a liverec may already record there (`login` writes only accounts.json, which the recorder re-reads).
 */
export function workDirProblem(dir: string, create = false, beside = false): string | null {
  let st: Stats | undefined;
  try {
    st = statSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') return `work directory ${dir} cannot be reached by this user${who()}: ${code ?? (err as Error).message}`;
  }
  if (!st) {
    if (!create) return `work directory ${dir} does not exist (create it first, or check the path)`;
    const parent = nearestExisting(dirname(dir));
    if (!statSync(parent).isDirectory()) return `work directory ${dir} cannot be created: ${parent} is a file`;
    return writable(parent) ? null : `work directory ${dir} cannot be created: ${parent} is not writable by this user${who()}`;
  }
  if (!st.isDirectory()) return `work directory ${dir} is a file, not a directory`;
  if (!writable(dir)) return `work directory ${dir} is not writable by this user${who()}`;
  // The webhook journal's lock names the liverec that records here (src/webhook/journal-lock.ts).
  if (beside) return null;
  const holder = lockHolder(join(dir, `${JOURNAL_RELATIVE_PATH}.lock`));
  if (holder) return `work directory ${dir} is in use by another liverec (${holder}); stop it or choose another directory`;
  return null;
}

function nearestExisting(path: string): string {
  let p = path;
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  return p;
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const who = (): string => (typeof process.getuid === 'function' ? ` (uid ${process.getuid()})` : '');
