// zod schema of the recent-deliveries list, for `GET /api/webhook/deliveries` and its OpenAPI document.
import { z } from 'zod';
import { EVENT_TYPES } from '../events/types.js';

export const DELIVERY_STATES = ['queued', 'sending', 'retrying', 'delivered', 'given-up'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

const timestamp = z.string().meta({ description: 'DateTimeOffset, UTC with +00:00 (e.g. 2024-03-17T04:34:56.123+00:00)' });

export const WebhookDeliverySchema = z
  .object({
    eventId: z.uuid().meta({ description: 'EventId (v2) or EventRandomId (v1) exactly as the receiver sees it' }),
    eventType: z.enum(EVENT_TYPES),
    version: z.union([z.literal(1), z.literal(2)]).meta({ description: 'Webhook version: 1 = WebHookUrls, 2 = WebHookUrlsV2' }),
    url: z.string().meta({ description: 'The receiver, redacted in API answers: origin, /…, and #tag (see docs/security.md); /api/webhook/replay accepts this form' }),
    attempts: z.number().int().min(0).max(3).meta({ description: 'Attempts started so far (at most 3)' }),
    state: z.enum(DELIVERY_STATES).meta({
      description: 'queued: waiting on disk or for a slot; sending: attempt in flight; retrying: waiting 1 s/2 s; delivered; given-up after 3 attempts',
    }),
    lastStatus: z.number().int().nullable().meta({ description: 'HTTP status of the last answered attempt' }),
    lastError: z.string().nullable().meta({ description: 'Why the last attempt failed' }),
    lastErrorCode: z.string().nullable().meta({ description: 'WEBHOOK_HTTP_STATUS, WEBHOOK_REDIRECT (a 3xx, never followed), WEBHOOK_TIMEOUT, WEBHOOK_NETWORK, WEBHOOK_INTERRUPTED' }),
    createdAt: timestamp,
    updatedAt: timestamp,
    nextAttemptAt: timestamp.nullable().meta({ description: 'When the next attempt is due (retrying only)' }),
    finishedAt: timestamp.nullable(),
  })
  .meta({ description: 'One (event, URL) webhook delivery' });

export const WebhookDeliveriesSchema = z.array(WebhookDeliverySchema).meta({ description: 'Recent webhook deliveries, most recently updated first' });

export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
