// Confinement of user-supplied paths to the work directory: no dot entries, no climbing out, no symlinks out.
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

/**
 * Splits a `/`- or `\`-separated relative path into segments. Null when any segment is a dot entry (`.`, `..`,
 * hidden files — never listed nor served, as brec's PhysicalFileProvider) or holds a NUL or a slash after decoding.
 * A leading slash means the work directory's root, as brec's file browser reads it.
 */
export function safeSegments(path: string, decode = false): string[] | null {
  const segments: string[] = [];
  for (const raw of path.split(/[/\\]/)) {
    if (raw === '') continue;
    let s = raw;
    if (decode) {
      try {
        s = decodeURIComponent(raw);
      } catch {
        return null;
      }
    }
    if (s.startsWith('.') || s.includes('\0') || s.includes('/') || s.includes('\\')) return null;
    segments.push(s);
  }
  return segments;
}

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The real path of `segments` under `root` if it exists and stays inside root's real path (symlinks resolved). */
export async function resolveInside(root: string, segments: string[]): Promise<string | null> {
  try {
    const realRoot = await realpath(root);
    const real = await realpath(join(realRoot, ...segments));
    return isInside(realRoot, real) ? real : null;
  } catch {
    return null;
  }
}
