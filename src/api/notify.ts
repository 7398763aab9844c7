// POST /api/notify/test (liverec addition): one test notification to every saved NotifyUrls target, results per target.
import { createRoute, z } from '@hono/zod-openapi';
import type { ApiApp, ApiDeps } from './context.js';
import { sendJson } from './json.js';

const ResultSchema = z.object({
  target: z.string().openapi({ description: 'The target without its secrets (no password, token or device key)' }),
  ok: z.boolean(),
  error: z.string().nullable(),
}).openapi('NotifyTestResult');

const route = createRoute({
  method: 'post', path: '/api/notify/test', summary: 'Send a test notification (liverec)', tags: ['Notify'],
  description: 'liverec extension: sends one test message to every NotifyUrls target; an empty list when none is saved. See docs/notifications.md.',
  responses: { 200: { content: { 'application/json': { schema: z.array(ResultSchema) } }, description: 'One result per target' } },
});

export function registerNotifyRoutes(app: ApiApp, deps: ApiDeps): void {
  app.openapi(route, async (c) => sendJson(c, (await deps.notifyTest?.()) ?? [], 200));
}
