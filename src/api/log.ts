// GET /api/log/fetch: the in-memory log ring with brec's cursor semantics (CLEF objects).
import { createRoute, z } from '@hono/zod-openapi';
import { logRing } from '../log/logger.js';
import type { ApiApp } from './context.js';
import { errorContent } from './errors.js';
import { sendJson } from './json.js';
import { Int64Schema } from './schemas.js';

export const JsonLogSchema = z
  .object({
    continuous: z.boolean().openapi({ description: 'true when `after` was still buffered: logs holds only newer entries' }),
    cursor: Int64Schema.openapi({ description: 'Id of the newest buffered entry (0 when empty); pass it as `after` next time' }),
    logs: z.array(z.object({
      '@t': z.string().openapi({ description: 'Timestamp (ISO 8601)' }),
      '@mt': z.string().openapi({ description: 'Message template' }),
      '@l': z.string().optional().openapi({ description: 'Level; absent for Information' }),
      '@x': z.string().optional().openapi({ description: 'Exception text' }),
    }).catchall(z.unknown()).openapi('JsonLogEntry', { description: 'A CLEF log event: @t, @mt, @l, @x, then its properties (RoomId, SourceContext, …)' })),
  })
  .openapi('JsonLogDto');

const route = createRoute({
  method: 'get', path: '/api/log/fetch', summary: '获取 JSON 日志', tags: ['Log'],
  request: { query: z.object({ after: z.string().regex(/^-?\d{1,19}$/, 'expected an integer').optional().openapi({ description: 'Cursor of the previous fetch', example: '0' }) }) },
  responses: {
    200: { content: { 'application/json': { schema: JsonLogSchema } }, description: 'Buffered logs (the last 100)' },
    400: { content: errorContent, description: '`after` is not an integer (-10)' },
  },
});

export function registerLogRoutes(app: ApiApp): void {
  app.openapi(route, (c) => {
    const { after } = c.req.valid('query');
    // Every ring entry is a CLEF object with @t and @mt (the schema names them for code generators).
    return sendJson(c, logRing.fetch(after === undefined ? undefined : Number(after)) as z.infer<typeof JsonLogSchema>, 200);
  });
}
