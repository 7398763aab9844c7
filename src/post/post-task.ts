// The CPU-bound post-file steps that run on the job pool's threads (workers/post.worker.ts), by path only.
import { writeFileSync } from 'node:fs';
import { renderAss } from '../danmaku/ass.js';
import { readDanmakuFile } from '../danmaku/read-xml.js';
import { siblingVideoSize } from '../danmaku/video-size.js';
import { crossCheck } from './remux/cross-check.js';
import { readMp4Summary } from './remux/mp4-summary.js';
import { remuxToMp4, type RemuxReport } from './remux/remux.js';
import { makeClip, type ClipRequest, type ClipResult } from '../clips/clip.js';
import type { PlainError } from '../errors.js';

export type PostTask =
  | { kind: 'remux'; input: string; output: string }
  | { kind: 'danmaku-ass'; xml: string; output: string }
  /** The independent reader's count of the source against the MP4's index (before a source may be deleted). */
  | { kind: 'cross-check'; input: string; output: string; format: 'flv' | 'ts' | 'fmp4' }
  | ({ kind: 'clip' } & ClipRequest);

export type PostTaskResult = RemuxReport | ClipResult | { events: number; width: number; height: number } | { problem: string | null };

/** What a pool thread answers: the result, or the task's error with its `code` (rebuilt by runOnPool). */
export type PostTaskOutcome = { ok: PostTaskResult } | { error: PlainError };

const DEFAULT_SIZE = { width: 1920, height: 1080 };

export function runPostTask(task: PostTask): PostTaskResult {
  if (task.kind === 'remux') return remuxToMp4(task.input, task.output);
  if (task.kind === 'cross-check') return { problem: crossCheck(task.input, task.format, readMp4Summary(task.output)) };
  if (task.kind === 'clip') return makeClip(task);
  const doc = readDanmakuFile(task.xml);
  const size = siblingVideoSize(task.xml) ?? DEFAULT_SIZE;
  const r = renderAss(doc, { width: size.width, height: size.height });
  writeFileSync(task.output, r.text);
  return { events: r.scroll + r.top + r.bottom + r.superChat, width: size.width, height: size.height };
}
