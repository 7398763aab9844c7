// Keeps a node's in-memory config and the database in step: local API edits are written, other nodes' edits are read.
import { ConfigStore } from '../config/store.js';
import { logger } from '../log/logger.js';
import type { Recorder } from '../rooms/recorder.js';
import type { Db } from './db.js';
import { saveRoom } from './shared-config.js';

type Json = Record<string, unknown>;

/** One text form for comparing global settings: what the store writes, whatever key order the database returns. */
function normalized(config: Json): string {
  return JSON.stringify(ConfigStore.fromText(JSON.stringify({ version: 3, global: config }), 'cluster database').toJSON().global);
}

export class GlobalSync {
  /** The global settings as last agreed with the database, normalised. */
  private globalText: string;
  /** Last JSON text of each local room as the database holds it. */
  private readonly roomText = new Map<number, string>();
  private writing: Promise<void> = Promise.resolve();
  private pendingWrites = 0;

  constructor(private readonly db: Db, private readonly recorder: Recorder) {
    this.globalText = JSON.stringify(recorder.config.toJSON().global);
    recorder.config.onChange(() => this.pushLocal());
  }

  track(roomId: number, config: Json): void {
    this.roomText.set(roomId, JSON.stringify(config));
  }

  untrack(roomId: number): void {
    this.roomText.delete(roomId);
  }

  /** Applies another node's global edit; skipped while a local edit is still being written. */
  async pull(): Promise<void> {
    const { rows } = await this.db.query<{ config: Json }>('SELECT config FROM liverec_global WHERE id = 1');
    if (this.pendingWrites > 0) return;
    const text = normalized(rows[0]?.config ?? {});
    if (text === this.globalText) return;
    this.globalText = text;
    this.recorder.config.global = ConfigStore.fromText(JSON.stringify({ version: 3, global: rows[0]?.config ?? {} }), 'cluster database').global;
    this.recorder.pushSettings();
    logger().info('global config changed on another node; applied');
  }

  private pushLocal(): void {
    const json = this.recorder.config.toJSON();
    const globalText = JSON.stringify(json.global);
    const rooms = json.rooms as Json[];
    const writes: (() => Promise<unknown>)[] = [];
    if (globalText !== this.globalText) {
      this.globalText = globalText;
      writes.push(() => this.db.query('UPDATE liverec_global SET config = $1 WHERE id = 1', [json.global]));
    }
    this.recorder.config.rooms.forEach((entry, i) => {
      const text = JSON.stringify(rooms[i]);
      if (!this.roomText.has(entry.roomId) || this.roomText.get(entry.roomId) === text) return;
      this.roomText.set(entry.roomId, text);
      writes.push(() => saveRoom(this.db, entry.roomId, rooms[i]!));
    });
    if (writes.length === 0) return;
    this.pendingWrites++;
    this.writing = this.writing
      .then(async () => { for (const w of writes) await w(); })
      .catch((err: unknown) => logger().error({ err }, 'could not save config to the cluster database'))
      .finally(() => { this.pendingWrites--; });
  }
}
