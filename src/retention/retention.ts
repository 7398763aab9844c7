// Retention: deletes the oldest closed recordings (with their sidecars) until the limits hold; previews the same plan.
import { lstatSync, statfsSync, unlinkSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import type { EventBus } from '../events/bus.js';
import type { RecorderEvent, RoomEventSnapshot } from '../events/types.js';
import { logger as rootLogger, type Logger } from '../log/logger.js';
import { formatLocal } from '../time.js';
import { planRetention, retentionEnabled, type RetentionLimits, type RetentionPlan } from './plan.js';
import { listRecordings, recordingKey, type Recording } from './recordings.js';

export interface RetentionOptions {
  workDir: string;
  limits: () => RetentionLimits;
  /** Absolute paths retention must not touch: open files, files whose jobs have not ended, files not yet uploaded. */
  protectedPaths: () => Iterable<string>;
  emit: (event: RecorderEvent) => void;
  snapshot?: (roomId: number) => RoomEventSnapshot | null;
  /** How often the limits are checked besides after every closed file (default 10 min). */
  intervalMs?: number;
  logger?: Logger;
}

const blankSnapshot = (roomId: number): RoomEventSnapshot => ({
  RoomId: roomId, ShortId: 0, Name: '', Title: '', AreaNameParent: '', AreaNameChild: '', Recording: false, Streaming: false, DanmakuConnected: false,
});

/** `<roomId>-name/…` (the default file name template) or a file named `…-<roomId>-…`: the room a recording belongs to. */
export function roomIdOf(key: string): number {
  const m = /^(\d+)-/.exec(key) ?? /录制-(\d+)-/.exec(key);
  return m ? Number(m[1]) : 0;
}

export class Retention {
  private readonly workDir: string;
  private readonly log: Logger;
  private timer: NodeJS.Timeout | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private detach: (() => void) | null = null;

  constructor(private readonly options: RetentionOptions) {
    this.workDir = resolve(options.workDir);
    this.log = options.logger ?? rootLogger().child({ component: 'retention' });
  }

  /** What a run would delete now, deleting nothing (GET /api/retention). */
  preview(): RetentionPlan {
    const keys = new Set<string>();
    for (const p of this.options.protectedPaths()) {
      const k = recordingKey(this.workDir, resolve(p));
      if (k !== null) keys.add(k);
    }
    const isProtected = (r: Recording): boolean => keys.has(r.key);
    let free: number | null = null;
    try {
      const st = statfsSync(this.workDir);
      free = st.bavail * st.bsize;
    } catch {
      free = null;
    }
    return planRetention(listRecordings(this.workDir), isProtected, this.options.limits(), free, Date.now());
  }

  /** Deletes what the plan says, oldest first; each recording is logged and announced with FileDeleted. */
  run(): RetentionPlan {
    if (!retentionEnabled(this.options.limits())) return this.preview();
    const plan = this.preview();
    for (const d of plan.deletions) {
      const files: string[] = [];
      let bytes = 0;
      for (const file of d.recording.files) {
        const abs = resolve(file);
        // Never outside the work directory, never through a link.
        if (!abs.startsWith(this.workDir + sep)) continue;
        try {
          const st = lstatSync(abs);
          if (!st.isFile()) continue;
          unlinkSync(abs);
          files.push(relative(this.workDir, abs).split(sep).join('/'));
          bytes += st.size;
        } catch (err) {
          this.log.warn({ err, path: abs }, 'retention could not delete a file');
        }
      }
      if (files.length === 0) continue;
      const roomId = roomIdOf(d.recording.key);
      const media = files.find((f) => /\.(flv|mp4|ts)$/i.test(f)) ?? files[0]!;
      this.log.info({ roomId, path: media, files, bytes, reason: d.reason }, `retention deleted ${media} (${d.reason}, ${bytes} bytes)`);
      this.options.emit({
        EventType: 'FileDeleted', EventTimestamp: formatLocal(),
        EventData: { ...(this.options.snapshot?.(roomId) ?? blankSnapshot(roomId)), RoomId: roomId, RelativePath: media, Files: files, FileSize: bytes, Reason: d.reason },
      });
    }
    return plan;
  }

  /** Runs after every closed file and post-processed file (debounced) and on a timer. */
  start(bus: EventBus): void {
    const soon = (): void => {
      if (this.debounce) return;
      this.debounce = setTimeout(() => {
        this.debounce = null;
        this.safeRun();
      }, 1000);
      this.debounce.unref();
    };
    this.detach = bus.on((e) => {
      if (e.EventType === 'FileClosed' || e.EventType === 'PostProcessed') soon();
    });
    this.timer = setInterval(() => this.safeRun(), this.options.intervalMs ?? 600_000);
    this.timer.unref();
    soon();
  }

  private safeRun(): void {
    try {
      this.run();
    } catch (err) {
      this.log.error({ err }, 'retention run failed');
    }
  }

  close(): void {
    this.detach?.();
    if (this.timer) clearInterval(this.timer);
    if (this.debounce) clearTimeout(this.debounce);
    this.timer = this.debounce = null;
  }
}
