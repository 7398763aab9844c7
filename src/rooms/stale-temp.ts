// Removes temp files a previous run left behind (a crash or a full disk between write and rename).
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Deletes `*.tmp` files directly in the work directory and in `.liverec/` that are older than this process
 * (atomic config saves and journal compaction write `<name>.tmp` and rename it; a leftover is never needed).
 * Recordings are never touched: only those two folders, only that suffix. Returns the names removed.
 */
export function removeStaleTempFiles(workDir: string, startedAt = Date.now() - process.uptime() * 1000): string[] {
  const removed: string[] = [];
  for (const dir of [workDir, join(workDir, '.liverec')]) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.tmp'));
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(dir, name);
      try {
        const st = statSync(path);
        if (!st.isFile() || st.mtimeMs >= startedAt) continue;
        rmSync(path, { force: true });
        removed.push(path);
      } catch {
        // gone already, or not ours to remove
      }
    }
  }
  return removed;
}
