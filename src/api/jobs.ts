// GET /api/jobs (liverec addition): the post-file jobs (remux, subtitles, command, upload…) and queued notifications with their state, newest first.
import { createRoute, z } from '@hono/zod-openapi';
import { isAbsolute, relative } from 'node:path';
import { PostJobSchema, type PostJob, type PostJobDto } from '../post/job.js';
import type { ApiApp, ApiDeps } from './context.js';
import { sendJson } from './json.js';

const route = createRoute({
  method: 'get', path: '/api/jobs', summary: 'Post-file jobs (liverec)', tags: ['Jobs'],
  description: 'liverec extension: the jobs each closed file\'s settings asked for (PostRemuxToMp4, PostDanmakuToAss, PostCommand), '
    + 'and each notification to each NotifyUrls target (kind notify, relativePath empty), '
    + 'journaled and resumed across restarts. Failed jobs stay listed with their error. See docs/post-processing.md.',
  responses: {
    200: { content: { 'application/json': { schema: z.array(PostJobSchema) } }, description: 'Newest file first, each file\'s jobs in run order' },
  },
});

const iso = (ms: number): string => new Date(ms).toISOString();

export function jobDto(j: PostJob, workDir: string): PostJobDto {
  return {
    id: j.id, fileId: j.fileId, kind: j.kind, step: j.step, roomId: j.roomId, relativePath: j.file?.RelativePath ?? (j.kind === 'clip' ? relative(workDir, j.source).split('\\').join('/') : ''), state: j.state,
    attempts: j.attempts, createdAt: iso(j.createdAt), updatedAt: iso(j.updatedAt),
    nextAttemptAt: j.state === 'retrying' && j.dueAt ? iso(j.dueAt) : null, error: j.error,
    output: j.output === null ? null : isAbsolute(j.output) ? relative(workDir, j.output) : j.output,
    skipped: j.skipped ?? null,
  };
}

export function registerJobRoutes(app: ApiApp, deps: ApiDeps): void {
  app.openapi(route, (c) => sendJson(c, (deps.jobs?.() ?? []).map((j) => jobDto(j, deps.recorder.workDir)), 200));
}
