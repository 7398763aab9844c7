// GET /api/retention (liverec addition): retention's dry run: what it would delete now and why, and what it keeps.
import { createRoute, z } from '@hono/zod-openapi';
import { relative, sep } from 'node:path';
import type { ApiApp, ApiDeps } from './context.js';
import { sendJson } from './json.js';
import { parseGB } from '../retention/plan.js';

const RetentionPreviewSchema = z.object({
  enabled: z.boolean().openapi({ description: 'Any of RetentionMaxAgeDays, RetentionMaxTotalGB, RetentionMinFreeGB is set' }),
  totalBytes: z.number().int().openapi({ description: 'Bytes of every recording in the work directory (sidecars included)' }),
  freeBytes: z.number().int().nullable().openapi({ description: 'Free bytes on the work directory\'s disk; null when unknown' }),
  deletions: z.array(z.object({
    recording: z.string().openapi({ description: 'The recording without its suffix, relative to the work directory' }),
    files: z.array(z.string()),
    bytes: z.number().int(),
    modifiedAt: z.string().openapi({ description: 'ISO 8601' }),
    reason: z.enum(['max-age', 'max-total', 'min-free']),
  })).openapi({ description: 'Oldest first: what the next run deletes' }),
  protected: z.array(z.string()).openapi({ description: 'Recordings kept although old: open, being post-processed or not yet uploaded' }),
}).openapi('RetentionPreview');

const route = createRoute({
  method: 'get', path: '/api/retention', summary: 'Retention dry run (liverec)', tags: ['Retention'],
  description: 'liverec extension: what retention would delete now; nothing is deleted by this call. See docs/post-processing.md.',
  responses: { 200: { content: { 'application/json': { schema: RetentionPreviewSchema } }, description: 'The plan of the next run' } },
});

export function registerRetentionRoutes(app: ApiApp, deps: ApiDeps): void {
  app.openapi(route, (c) => {
    const plan = deps.retention?.();
    const workDir = deps.recorder.workDir;
    const rel = (p: string): string => relative(workDir, p).split(sep).join('/');
    return sendJson(c, {
      enabled: plan !== undefined && retentionOn(deps),
      totalBytes: plan?.totalBytes ?? 0,
      freeBytes: plan?.freeBytes ?? null,
      deletions: (plan?.deletions ?? []).map((d) => ({
        recording: d.recording.key, files: d.recording.files.map(rel), bytes: d.recording.bytes, modifiedAt: new Date(d.recording.modifiedMs).toISOString(), reason: d.reason,
      })),
      protected: plan?.protected ?? [],
    }, 200);
  });
}

function retentionOn(deps: ApiDeps): boolean {
  const c = deps.recorder.config;
  return c.effective('RetentionMaxAgeDays') > 0 || parseGB(c.effective('RetentionMaxTotalGB')) > 0 || parseGB(c.effective('RetentionMinFreeGB')) > 0;
}
