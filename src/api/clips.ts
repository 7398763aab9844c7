// /api/clips (liverec addition): lossless clips of recordings, queued as jobs of the durable post-job queue.
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { createRoute, z } from '@hono/zod-openapi';
import { checkRange, CLIP_FORMATS, MAX_CLIP_MS } from '../clips/clip.js';
import { clipParams } from '../clips/clip-job.js';
import { JOB_STATES, type PostJob } from '../post/job.js';
import type { ApiApp, ApiDeps } from './context.js';
import { ApiErrorCode, errorContent } from './errors.js';
import { sendJson } from './json.js';
import { invalid, noSuchFile, relativeToWork, workFile } from './work-file.js';

export const ClipSchema = z.object({
  id: z.string().openapi({ description: 'The job\'s id (GET /api/jobs lists it too, kind clip)' }),
  path: z.string().openapi({ description: 'The source recording, relative to the work directory' }),
  startMs: z.number().int(),
  endMs: z.number().int(),
  format: z.enum(CLIP_FORMATS),
  danmaku: z.boolean(),
  state: z.enum(JOB_STATES),
  attempts: z.number().int(),
  error: z.string().nullable(),
  output: z.string().nullable().openapi({ description: 'The clip, relative to the work directory, once done' }),
  danmakuXml: z.string().nullable().openapi({ description: 'The span\'s danmaku with times from the clip\'s start, once done' }),
  danmakuAss: z.string().nullable(),
  createdAt: z.string().openapi({ description: 'ISO 8601' }),
  updatedAt: z.string(),
}).openapi('Clip');

const CreateClipSchema = z.object({
  path: z.string().min(1).openapi({ description: 'The recording (FLV, MPEG-TS or MP4), relative to the work directory' }),
  startMs: z.number().int().min(0).openapi({ description: 'The clip starts at the video keyframe at or before this time (no re-encode)' }),
  endMs: z.number().int().min(1).openapi({ description: `Exclusive; at most ${MAX_CLIP_MS / 3600_000} h after startMs` }),
  danmaku: z.boolean().optional().openapi({ description: 'Also write the span\'s danmaku as XML and ASS (default true)' }),
  format: z.enum(CLIP_FORMATS).optional().openapi({ description: 'mp4 (default, faststart) or flv (FLV sources only)' }),
}).openapi('CreateClipDto');

const tags = ['Clips'];
const description = 'liverec extension: a clip is cut from the keyframe at or before startMs, without re-encoding, beside its source '
  + '(`<name>.clip-<startMs>-<endMs>.mp4`, `.xml`, `.ass`); the source is only read. See docs/clips.md.';

const create = createRoute({
  method: 'post', path: '/api/clips', summary: 'Queue a clip (liverec)', tags, description,
  request: { body: { content: { 'application/json': { schema: CreateClipSchema } } } },
  responses: {
    202: { content: { 'application/json': { schema: ClipSchema } }, description: 'Queued' },
    400: { content: errorContent, description: 'Invalid request (-10)' },
    404: { content: errorContent, description: 'No such recording (-12)' },
  },
});

const list = createRoute({
  method: 'get', path: '/api/clips', summary: 'Clips (liverec)', tags, description,
  responses: { 200: { content: { 'application/json': { schema: z.array(ClipSchema) } }, description: 'Newest first' } },
});

const iso = (ms: number): string => new Date(ms).toISOString();

export function clipDto(j: PostJob, workDir: string): z.infer<typeof ClipSchema> {
  const rel = (p: string): string => (isAbsolute(p) ? relative(workDir, p) : p).split('\\').join('/');
  const p = clipParams(j);
  const side = (ext: string): string | null => {
    if (j.state !== 'done' || !j.output || !p.danmaku) return null;
    const file = j.output.replace(/\.[^./\\]+$/, ext);
    return existsSync(isAbsolute(file) ? file : join(workDir, file)) ? rel(file) : null;
  };
  return {
    id: j.id, path: rel(j.source), startMs: p.startMs, endMs: p.endMs, format: p.format, danmaku: p.danmaku, state: j.state,
    attempts: j.attempts, error: j.error, output: j.output === null ? null : rel(j.output), danmakuXml: side('.xml'), danmakuAss: side('.ass'),
    createdAt: iso(j.createdAt), updatedAt: iso(j.updatedAt),
  };
}

/** The room of a recording from its folder or file name (`<roomId>-…`), 0 when neither starts with one. */
export function roomOfPath(rel: string): number {
  for (const part of rel.split('/').reverse()) {
    const m = /^(\d{1,10})-/.exec(part);
    if (m && Number(m[1]) <= 2147483647) return Number(m[1]);
  }
  return 0;
}

export function registerClipRoutes(app: ApiApp, deps: ApiDeps): void {
  app.openapi(create, async (c) => {
    const body = c.req.valid('json');
    try {
      checkRange(body.startMs, body.endMs);
    } catch (err) {
      return invalid(c, (err as Error).message);
    }
    const full = await workFile(deps, body.path);
    if (!full || !/\.(flv|ts|mp4)$/i.test(full)) return noSuchFile(c, `${body.path} (a recording: .flv, .ts or .mp4)`);
    if (body.format === 'flv' && !/\.flv$/i.test(full)) return invalid(c, 'an FLV clip needs an FLV recording');
    if (!deps.clips) return sendJson(c, { code: ApiErrorCode.NotFound, message: 'clips are not available on this server' }, 404);
    const rel = relativeToWork(deps, full);
    const job = deps.clips.enqueue(roomOfPath(rel), join(deps.recorder.workDir, rel), { startMs: body.startMs, endMs: body.endMs, format: body.format ?? 'mp4', danmaku: body.danmaku ?? true });
    return sendJson(c, clipDto(job, deps.recorder.workDir), 202);
  });
  app.openapi(list, (c) => sendJson(c, (deps.jobs?.() ?? []).filter((j) => j.kind === 'clip').map((j) => clipDto(j, deps.recorder.workDir)), 200));
}
