// Finds recordings (.flv/.mp4/.ts) in the work directory written after a moment: files a crashed run may have left open.
import { readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decodeAmf } from '../flv/amf.js';
import { getNumber, getString, onMetaDataMap } from '../flv/metadata.js';
import type { RoomEventSnapshot } from '../events/types.js';
import { withOpenFile } from './orphan-file.js';
import { readMp4Summary } from '../post/remux/mp4-summary.js';

const MEDIA = /\.(flv|mp4|ts)$/i;
/** Folders never holding recordings: liverec's own state and other hidden folders. */
const SKIP = (name: string): boolean => name.startsWith('.') || name === 'node_modules';

/** Media files under `workDir` modified after `sinceMs`, oldest first (a recursive walk, run only after a crash). */
export function recentMediaFiles(workDir: string, sinceMs: number): string[] {
  const found: { path: string; mtime: number }[] = [];
  const walk = (dir: string, depth: number): void => {
    let names: import('node:fs').Dirent[];
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) {
      const path = join(dir, d.name);
      if (d.isDirectory()) {
        if (!SKIP(d.name) && depth < 8) walk(path, depth + 1);
      } else if (d.isFile() && MEDIA.test(d.name)) {
        // A faststart MP4 is a finished remux output (src/post), never a recording left open: HLS writes fragmented MP4.
        if (/\.mp4$/i.test(d.name) && readMp4Summary(path)?.faststart) continue;
        try {
          const mtime = statSync(path).mtimeMs;
          if (mtime > sinceMs) found.push({ path, mtime });
        } catch {
          // gone meanwhile
        }
      }
    }
  };
  walk(workDir, 0);
  return found.sort((a, b) => a.mtime - b.mtime).map((f) => f.path);
}

/** The room facts liverec writes into an FLV's onMetaData (its `liverec` block), for a file no journal entry names. */
export function snapshotFromFile(path: string): RoomEventSnapshot {
  const empty: RoomEventSnapshot = {
    RoomId: 0, ShortId: 0, Name: '', Title: '', AreaNameParent: '', AreaNameChild: '', Recording: false, Streaming: false, DanmakuConnected: false,
  };
  if (!path.toLowerCase().endsWith('.flv')) return empty;
  return withOpenFile(path, (fd) => {
    const head = Buffer.alloc(11);
    if (readSync(fd, head, 0, 11, 13) < 11 || head[0] !== 18) return empty;
    const body = Buffer.alloc(head.readUIntBE(1, 3));
    if (readSync(fd, body, 0, body.length, 24) < body.length) return empty;
    try {
      const block = onMetaDataMap(decodeAmf(body))?.get('liverec');
      if (!block || (block.type !== 'EcmaArray' && block.type !== 'Object')) return empty;
      const m = block.value;
      return {
        ...empty, RoomId: getNumber(m, 'RoomId') ?? 0, ShortId: getNumber(m, 'ShortId') ?? 0, Name: getString(m, 'Name') ?? '',
        Title: getString(m, 'StreamTitle') ?? '', AreaNameParent: getString(m, 'AreaNameParent') ?? '', AreaNameChild: getString(m, 'AreaNameChild') ?? '',
      };
    } catch {
      return empty;
    }
  }) ?? empty;
}
