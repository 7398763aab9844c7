// Room id → anchor uid, learned once (room_init / getInfoByRoom) and kept in <workDir>/.liverec/room-uids.json across restarts.
import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';

/** Why a file and not config.json: brec's config has no uid, and a uid is a fact about the service, not a setting. */
export class UidCache {
  private readonly map = new Map<number, number>();
  private readonly path: string;
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(workDir: string) {
    this.path = join(workDir, '.liverec', 'room-uids.json');
    try {
      if (existsSync(this.path)) {
        const data = JSON.parse(readFileSync(this.path, 'utf8')) as Record<string, unknown>;
        for (const [k, v] of Object.entries(data)) if (/^\d+$/.test(k) && typeof v === 'number' && v > 0) this.map.set(Number(k), v);
      }
    } catch {
      // A damaged cache only costs one room_init per room; it is rewritten with the next uid learned.
    }
  }

  get(roomId: number): number | undefined {
    return this.map.get(roomId);
  }

  set(roomId: number, uid: number): void {
    if (uid <= 0 || this.map.get(roomId) === uid) return;
    this.map.set(roomId, uid);
    this.dirty = true;
    // Rooms learn their uids in bursts at first start: one write a second at most.
    this.timer ??= setTimeout(() => this.flush(), 1000);
    this.timer.unref?.();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.dirty) return;
    this.dirty = false;
    try {
      mkdirSync(join(this.path, '..'), { recursive: true });
      const tmp = `${this.path}.tmp`;
      writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.map)));
      renameSync(tmp, this.path);
    } catch {
      this.dirty = true;
    }
  }
}
