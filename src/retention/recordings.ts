// The recordings in a work directory, each with its sidecars (danmaku XML, ASS, cover, MP4 of a remux) as one group.
import { lstatSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Suffixes that make up one recording, longest first: `x.flv`, `x.xml`, `x.ass`, `x.cover.jpg`, `x.faststart.mp4`, `x.partial.mp4`… */
const SUFFIXES = ['.faststart.mp4', '.partial.mp4', '.cover.jpg', '.cover.png', '.cover.webp', '.flv', '.mp4', '.ts', '.xml', '.ass', '.jpg', '.png', '.webp'];
const MEDIA = /\.(flv|mp4|ts)$/i;

export interface Recording {
  /** The recording's path without its suffix, relative to the work directory (`/`-separated). */
  key: string;
  /** Absolute paths of every file of the recording. */
  files: string[];
  bytes: number;
  /** Newest modification time among its files (ms). */
  modifiedMs: number;
}

function suffixOf(name: string): string | null {
  const lower = name.toLowerCase();
  return SUFFIXES.find((s) => lower.endsWith(s)) ?? null;
}

/** Every recording under `workDir` (hidden folders such as .liverec skipped, links never followed), oldest first. */
export function listRecordings(workDir: string): Recording[] {
  const groups = new Map<string, Recording & { media: boolean }>();
  const walk = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      let st;
      try {
        st = lstatSync(path);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (depth < 8) walk(path, depth + 1);
        continue;
      }
      if (!st.isFile()) continue;
      const suffix = suffixOf(name);
      if (!suffix) continue;
      const key = relative(workDir, path.slice(0, path.length - suffix.length)).split(sep).join('/');
      const g = groups.get(key) ?? { key, files: [], bytes: 0, modifiedMs: 0, media: false };
      g.files.push(path);
      g.bytes += st.size;
      g.modifiedMs = Math.max(g.modifiedMs, st.mtimeMs);
      g.media ||= MEDIA.test(name);
      groups.set(key, g);
    }
  };
  walk(workDir, 0);
  return [...groups.values()].filter((g) => g.media).map(({ media: _, ...g }) => g).sort((a, b) => a.modifiedMs - b.modifiedMs || a.key.localeCompare(b.key));
}

/** The group key of an absolute path inside the work directory (null when it is not a recording's file). */
export function recordingKey(workDir: string, path: string): string | null {
  const suffix = suffixOf(path);
  if (!suffix) return null;
  return relative(workDir, path.slice(0, path.length - suffix.length)).split(sep).join('/');
}
