// The path a room worker records to: brec's generator plus a never-overwrite rule for the fallback path.
import { existsSync } from 'node:fs';
import { LiverecError } from '../errors.js';
import { generateFileName, FileNameStatus, type FileNameContext, type FileNameResult } from './file-name.js';

export interface RecordingPathOptions {
  template: string | null | undefined;
  workDir: string;
  now?: Date;
  /** Defaults to fs.existsSync. */
  exists?: (fullPath: string) => boolean;
}

const MAX_SUFFIX = 10_000;

/**
 * Like brec, a conflict or template error falls back to the default template. If that path exists too, liverec
 * adds `-1`, `-2`, … before `.flv` until the name is free, so an existing recording is never overwritten.
 * The status and message of the first failure are kept for logging.
 */
export function recordingPath(ctx: FileNameContext, opts: RecordingPathOptions): FileNameResult {
  const exists = opts.exists ?? existsSync;
  const result = generateFileName(ctx, { template: opts.template, workDir: opts.workDir, now: opts.now, sanitizeContext: true, exists });
  if (result.status === FileNameStatus.Success || !exists(result.fullPath)) return result;
  const stem = (p: string): string => p.slice(0, -'.flv'.length);
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const fullPath = `${stem(result.fullPath)}-${n}.flv`;
    if (!exists(fullPath)) return { ...result, fullPath, relativePath: `${stem(result.relativePath)}-${n}.flv` };
  }
  throw new LiverecError('FILE_NAME_EXHAUSTED', `no free file name after ${MAX_SUFFIX} attempts: ${result.relativePath}`);
}
