// A recording named by a request (`path`, relative to the work directory) resolved as the file endpoints do: confined, real.
import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import type { Context } from 'hono';
import type { ApiDeps } from './context.js';
import { ApiErrorCode } from './errors.js';
import { sendJson } from './json.js';
import { resolveInside, safeSegments } from './safe-path.js';

/** The absolute real path of an existing regular file inside the work directory, or null (hidden, outside, missing, browsing off). */
export async function workFile(deps: ApiDeps, path: string): Promise<string | null> {
  if (deps.fileBrowser === false) return null;
  const segments = safeSegments(path);
  if (!segments || segments.length === 0) return null;
  const full = await resolveInside(deps.recorder.workDir, segments);
  if (!full) return null;
  try {
    return (await stat(full)).isFile() ? full : null;
  } catch {
    return null;
  }
}

/** `path` relative to the work directory with forward slashes. */
export function relativeToWork(deps: ApiDeps, full: string): string {
  const plain = relative(deps.recorder.workDir, full);
  const rel = plain.startsWith('..') ? relative(realpathSync(deps.recorder.workDir), full) : plain;
  return rel.split(sep).join('/');
}

export const noSuchFile = (c: Context, path: string) =>
  sendJson(c, { code: ApiErrorCode.NotFound, message: `no such file in the work directory: ${path}` }, 404);

export const invalid = (c: Context, message: string) => sendJson(c, { code: ApiErrorCode.InvalidRequest, message }, 400);
