// GET /api/file/danmaku-density (liverec addition): a recording's danmaku heat per bucket, read from its danmaku XML.
import { existsSync } from 'node:fs';
import { createRoute, z } from '@hono/zod-openapi';
import { densityOf } from '../clips/density.js';
import { danmakuTimes } from '../clips/danmaku-times.js';
import type { ApiApp, ApiDeps } from './context.js';
import { errorContent } from './errors.js';
import { sendJson } from './json.js';
import { invalid, noSuchFile, relativeToWork, workFile } from './work-file.js';

const Counts = {
  danmaku: z.number().int().openapi({ description: '<d> comments' }),
  superChats: z.number().int().openapi({ description: '<sc> super chats' }),
  gifts: z.number().int().openapi({ description: '<gift> gifts' }),
  guards: z.number().int().openapi({ description: '<guard> guard purchases' }),
};

export const DanmakuDensitySchema = z.object({
  path: z.string().openapi({ description: 'The danmaku XML read, relative to the work directory' }),
  bucketS: z.number(),
  buckets: z.array(z.object({ startS: z.number().openapi({ description: 'Seconds on the file\'s timeline' }), ...Counts })),
  totals: z.object(Counts).openapi({ description: 'Every element of the XML by kind: the buckets add up to these' }),
}).openapi('DanmakuDensity');

const route = createRoute({
  method: 'get', path: '/api/file/danmaku-density', summary: 'Danmaku heat of a recording (liverec)', tags: ['File'],
  description: 'liverec extension: counts of comments, super chats, gifts and guard purchases per bucket of the recording\'s timeline, '
    + 'from the danmaku XML beside it. See docs/clips.md.',
  request: {
    query: z.object({
      path: z.string().min(1).openapi({ description: 'The recording or its danmaku XML, relative to the work directory' }),
      bucketS: z.coerce.number().min(0.1).max(3600).optional().openapi({ description: 'Seconds per bucket (default 10)' }),
    }),
  },
  responses: {
    200: { content: { 'application/json': { schema: DanmakuDensitySchema } }, description: 'The heat, buckets from 0 to the last element' },
    400: { content: errorContent, description: 'Invalid query or an unreadable XML (-10)' },
    404: { content: errorContent, description: 'No such file, or no danmaku XML beside it (-12)' },
  },
});

/** The danmaku XML of a path naming a recording or the XML itself. */
export const xmlOf = (full: string): string => (/\.xml$/i.test(full) ? full : full.replace(/\.[^./\\]+$/, '') + '.xml');

export function registerDanmakuDensityRoutes(app: ApiApp, deps: ApiDeps): void {
  app.openapi(route, async (c) => {
    const { path, bucketS = 10 } = c.req.valid('query');
    const full = await workFile(deps, path);
    if (!full) return noSuchFile(c, path);
    const xml = xmlOf(full);
    if (!existsSync(xml)) return noSuchFile(c, `${path} (its danmaku XML)`);
    let items;
    try {
      items = await danmakuTimes(xml);
    } catch (err) {
      return invalid(c, (err as Error).message.replace(xml, relativeToWork(deps, xml)));
    }
    return sendJson(c, { path: relativeToWork(deps, xml), ...densityOf(items, bucketS) }, 200);
  });
}
