// GET /api/webhook/deliveries (liverec addition): recent webhook deliveries from the outbox, newest first.
import { redactUrl } from '../webhook/redact-url.js';
import { createRoute, z } from '@hono/zod-openapi';
import { WebhookDeliveriesSchema, WebhookDeliverySchema } from '../webhook/deliveries-schema.js';
import type { ApiApp, ApiDeps } from './context.js';
import { sendJson } from './json.js';

// Imported from the outbox (src/webhook/deliveries-schema.ts), so the document and the outbox cannot drift apart;
// named here so the document refers to one WebhookDelivery component.
const DeliveriesSchema = z.array(WebhookDeliverySchema.openapi('WebhookDelivery')).openapi({ description: WebhookDeliveriesSchema.description });

const route = createRoute({
  method: 'get', path: '/api/webhook/deliveries', summary: 'Recent webhook deliveries (liverec)', tags: ['Webhook'],
  responses: {
    200: {
      content: { 'application/json': { schema: DeliveriesSchema } },
      description: 'Newest first; an empty list when webhooks are not configured',
    },
  },
});

export function registerWebhookRoutes(app: ApiApp, deps: ApiDeps): void {
  // The URLs carry their receivers' secrets: shown redacted to every caller (replay accepts the redacted form).
  app.openapi(route, (c) => sendJson(c, (deps.deliveries?.() ?? []).map((d) => ({ ...d, url: redactUrl(d.url) })), 200));
}
