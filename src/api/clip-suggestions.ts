// GET /api/clips/suggestions (liverec addition): a recording's highest-heat windows, offered as clips a person accepts.
import { existsSync } from 'node:fs';
import { createRoute, z } from '@hono/zod-openapi';
import { suggestWindows } from '../clips/suggestions.js';
import { danmakuTimes } from '../clips/danmaku-times.js';
import type { ApiApp, ApiDeps } from './context.js';
import { xmlOf } from './danmaku-density.js';
import { errorContent } from './errors.js';
import { sendJson } from './json.js';
import { invalid, noSuchFile, relativeToWork, workFile } from './work-file.js';

const SuggestionsSchema = z.object({
  path: z.string().openapi({ description: 'The danmaku XML read, relative to the work directory' }),
  windowS: z.number(),
  suggestions: z.array(z.object({
    startMs: z.number().int(),
    endMs: z.number().int(),
    count: z.number().int().openapi({ description: 'Comments, super chats, gifts and guard purchases inside the window' }),
  })).openapi({ description: 'Highest count first; windows never overlap' }),
}).openapi('ClipSuggestions');

const route = createRoute({
  method: 'get', path: '/api/clips/suggestions', summary: 'Suggested clips of a recording (liverec)', tags: ['Clips'],
  description: 'liverec extension: the `count` windows of `windowS` seconds (sliding in 1 s steps) holding the most danmaku elements, '
    + 'without overlap; computed here from the danmaku XML, no outside service. Accept one with POST /api/clips. See docs/clips.md.',
  request: {
    query: z.object({
      path: z.string().min(1).openapi({ description: 'The recording or its danmaku XML, relative to the work directory' }),
      windowS: z.coerce.number().int().min(1).max(3600).optional().openapi({ description: 'Seconds per window (default 30)' }),
      count: z.coerce.number().int().min(1).max(50).optional().openapi({ description: 'How many windows (default 5)' }),
    }),
  },
  responses: {
    200: { content: { 'application/json': { schema: SuggestionsSchema } }, description: 'The windows' },
    400: { content: errorContent, description: 'Invalid query or an unreadable XML (-10)' },
    404: { content: errorContent, description: 'No such file, or no danmaku XML beside it (-12)' },
  },
});

export function registerClipSuggestionRoutes(app: ApiApp, deps: ApiDeps): void {
  app.openapi(route, async (c) => {
    const { path, windowS = 30, count = 5 } = c.req.valid('query');
    const full = await workFile(deps, path);
    if (!full) return noSuchFile(c, path);
    const xml = xmlOf(full);
    if (!existsSync(xml)) return noSuchFile(c, `${path} (its danmaku XML)`);
    let times: Float64Array;
    try {
      times = (await danmakuTimes(xml)).ts;
    } catch (err) {
      return invalid(c, (err as Error).message.replace(xml, relativeToWork(deps, xml)));
    }
    return sendJson(c, { path: relativeToWork(deps, xml), windowS, suggestions: suggestWindows(times, windowS, count) }, 200);
  });
}
