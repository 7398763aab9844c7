// A post-file job queue on a temp work directory with the service's real runner, and FileClosed events to feed it.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../src/events/bus.js';
import type { FileClosedData, RecorderEvent } from '../../src/events/types.js';
import { PostQueue } from '../../src/post/queue.js';
import type { RetryPolicy } from '../../src/post/retry.js';
import { serviceRunner } from '../../src/post/runners.js';
import type { JobRunner } from '../../src/post/runner.js';
import type { Logger } from '../../src/log/logger.js';
import type { PostSettings } from '../../src/post/plan.js';

export type QueueSettings = PostSettings & { PostJobConcurrency: number };
export const DEFAULT_SETTINGS: QueueSettings = { PostRemuxToMp4: 'none', PostDanmakuToAss: false, PostCommand: '', PostCommandTimeout: 600, PostJobConcurrency: 1, SaveStreamCover: false, StorageS3Url: '' };

export function tempWorkDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'liverec-post-'));
  mkdirSync(join(dir, '1001-streamer'), { recursive: true });
  return dir;
}

export const removeDir = (dir: string): void => rmSync(dir, { recursive: true, force: true });

export function fileClosed(relativePath: string, size = 1000): FileClosedData {
  return {
    RoomId: 1001, ShortId: 0, Name: 'streamer', Title: 'title', AreaNameParent: 'a', AreaNameChild: 'b', Recording: false, Streaming: true,
    DanmakuConnected: true, SessionId: '00000000-0000-0000-0000-000000000001', RelativePath: relativePath, FileOpenTime: '2026-01-01T00:00:00.000+08:00',
    FileSize: size, Duration: 3.84, FileCloseTime: '2026-01-01T00:00:04.000+08:00',
  };
}

export interface QueueFixture {
  queue: PostQueue;
  bus: EventBus;
  events: RecorderEvent[];
  /** Resolves with the next PostProcessed. */
  processed(timeoutMs?: number): Promise<RecorderEvent & { EventType: 'PostProcessed' }>;
}

export function startQueue(workDir: string, settings: Partial<QueueSettings>, retry?: RetryPolicy, more: { runner?: JobRunner; logger?: Logger } = {}): QueueFixture {
  const bus = new EventBus();
  const events: RecorderEvent[] = [];
  bus.on((e) => void events.push(e));
  const queue = new PostQueue({ workDir, settings: () => ({ ...DEFAULT_SETTINGS, ...settings }), runner: more.runner ?? serviceRunner, emit: (e) => bus.emit(e), retry, logger: more.logger });
  queue.attach(bus);
  queue.start();
  const processed = (timeoutMs = 60_000) => new Promise<RecorderEvent & { EventType: 'PostProcessed' }>((resolve, reject) => {
    const seen = events.length;
    const t = setInterval(() => {
      const e = events.slice(seen).find((x) => x.EventType === 'PostProcessed');
      if (e) {
        clearInterval(t);
        resolve(e as RecorderEvent & { EventType: 'PostProcessed' });
      }
    }, 20);
    setTimeout(() => {
      clearInterval(t);
      reject(new Error('no PostProcessed in time'));
    }, timeoutMs).unref();
  });
  return { queue, bus, events, processed };
}
