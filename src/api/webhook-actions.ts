// POST /api/webhook/test and /api/webhook/replay (liverec): the web UI's "send test event" and "replay" buttons.
import { redactUrl, unredactUrl } from '../webhook/redact-url.js';
import { createRoute, z } from '@hono/zod-openapi';
import { sendTestEvent } from '../webhook/test-event.js';
import type { ApiApp, ApiDeps } from './context.js';
import { ApiErrorCode, errorContent } from './errors.js';
import { sendJson } from './json.js';

const TestResultSchema = z.object({
  url: z.string(), version: z.union([z.literal(1), z.literal(2)]), ok: z.boolean(),
  status: z.number().int().nullable(), error: z.string().nullable(),
}).openapi('WebhookTestResult');

const testRoute = createRoute({
  method: 'post', path: '/api/webhook/test', summary: 'Send a test event to every configured webhook URL (liverec)', tags: ['Webhook'],
  description: 'One attempt per URL of WebHookUrls and WebHookUrlsV2 with `{"EventType":"Test",…}`; nothing is journaled or retried.',
  responses: { 200: { content: { 'application/json': { schema: z.array(TestResultSchema) } }, description: 'One result per URL (empty when none is configured)' } },
});

const ReplayBody = z.object({ eventId: z.uuid(), url: z.string().min(1) }).openapi('WebhookReplayInput');
const replayRoute = createRoute({
  method: 'post', path: '/api/webhook/replay', summary: 'Replay a recent webhook delivery once (liverec)', tags: ['Webhook'],
  description: 'Sends the delivery\'s exact bytes (same EventId) to its URL once more, outside its 3 automatic attempts.',
  request: { body: { content: { 'application/json': { schema: ReplayBody } }, required: true } },
  responses: {
    200: { content: { 'application/json': { schema: TestResultSchema.omit({ version: true }) } }, description: 'The outcome of the attempt' },
    400: { content: errorContent, description: 'Malformed body (-10)' },
    404: { content: errorContent, description: 'No such recent delivery (-12)' },
  },
});

export function registerWebhookActionRoutes(app: ApiApp, deps: ApiDeps): void {
  const config = deps.recorder.config;
  app.openapi(testRoute, async (c) => sendJson(c, (await sendTestEvent({
    webHookUrls: config.effective('WebHookUrls'), webHookUrlsV2: config.effective('WebHookUrlsV2'), timeoutMs: config.effective('TimingWebhookTimeout'),
  })).map((r) => ({ ...r, url: redactUrl(r.url) })), 200));
  app.openapi(replayRoute, async (c) => {
    const { eventId, url } = c.req.valid('json');
    const real = unredactUrl(url, (deps.deliveries?.() ?? []).map((d) => d.url));
    const outcome = (await deps.replayDelivery?.(eventId, real)) ?? null;
    if (!outcome) return sendJson(c, { code: ApiErrorCode.NotFound, message: 'no such recent webhook delivery' }, 404);
    return sendJson(c, { url, ok: outcome.ok, status: outcome.status ?? null, error: outcome.ok ? null : outcome.error ?? 'failed' }, 200);
  });
}
