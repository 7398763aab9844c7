// File-name previews (POST /api/misc/generateFileName) on one small worker, time-boxed and with a bounded queue.
import type { Piscina } from 'piscina';
import { workerPath } from '../paths.js';
import { FileNameStatus, generateFileName, type FileNameContext, type FileNameResult } from './file-name.js';

/** liquidjs stops a render after its renderLimit; this also covers parsing and a wedged thread (then replaced). */
export const PREVIEW_TIMEOUT_MS = 10_000;
/** Previews waiting beyond the one rendering; more are answered at once with a TemplateError. */
const MAX_QUEUE = 16;

let pool: Promise<Piscina> | null = null;

function getPool(): Promise<Piscina> {
  pool ??= import('piscina').then(({ Piscina }) => new Piscina({
    filename: workerPath('template'),
    minThreads: 0,
    maxThreads: 1,
    maxQueue: MAX_QUEUE,
    idleTimeout: 10_000,
    // A file-name preview needs little: a template that runs away ends its thread, not the service.
    resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8, stackSizeMb: 4 },
  }));
  return pool;
}

/** Renders like generateFileName with work directory "/" and raw context, never on the calling thread. */
export async function previewFileName(ctx: FileNameContext, template: string | null | undefined): Promise<FileNameResult> {
  try {
    return (await (await getPool()).run({ ctx, template }, { signal: AbortSignal.timeout(PREVIEW_TIMEOUT_MS) })) as FileNameResult;
  } catch (err) {
    // The default template is cheap and fixed: its path is what brec reports next to any template error.
    const fallback = generateFileName(ctx, { template: null, workDir: '/', sanitizeContext: false });
    const why = (err as Error).name === 'AbortError' || (err as Error).name === 'TimeoutError'
      ? `rendering took longer than ${PREVIEW_TIMEOUT_MS} ms`
      : `not rendered (${(err as Error).message})`;
    return { ...fallback, status: FileNameStatus.TemplateError, errorMessage: `template error: ${why}` };
  }
}

/** Stops the preview thread (API shutdown). */
export async function closePreviewPool(): Promise<void> {
  const p = pool;
  pool = null;
  await (await p)?.destroy();
}
