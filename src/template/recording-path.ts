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
  /** The file's extension in place of the template's `.flv` (HLS captures: `.mp4`, `.ts`). */
  extension?: string;
}

const MAX_SUFFIX = 10_000;

/**
 * Like brec, a conflict or template error falls back to the default template. If that path exists too, liverec
 * adds `-1`, `-2`, … before the extension until the name is free, so an existing recording is never overwritten.
 * The status and message of the first failure are kept for logging.
 */
export function recordingPath(ctx: FileNameContext, opts: RecordingPathOptions): FileNameResult {
  const ext = opts.extension ?? '.flv';
  const stem = (p: string): string => p.slice(0, -'.flv'.length);
  const swap = (p: string): string => (ext === '.flv' ? p : stem(p) + ext);
  const fsExists = opts.exists ?? existsSync;
  const exists = (p: string): boolean => fsExists(swap(p));
  const generated = generateFileName(ctx, { template: opts.template, workDir: opts.workDir, now: opts.now, sanitizeContext: true, exists });
  const result = { ...generated, fullPath: swap(generated.fullPath), relativePath: swap(generated.relativePath) };
  if (result.status === FileNameStatus.Success || !fsExists(result.fullPath)) return result;
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const fullPath = `${stem(generated.fullPath)}-${n}${ext}`;
    if (!fsExists(fullPath)) return { ...result, fullPath, relativePath: `${stem(generated.relativePath)}-${n}${ext}` };
  }
  throw new LiverecError('FILE_NAME_EXHAUSTED', `no free file name after ${MAX_SUFFIX} attempts: ${result.relativePath}`);
}
