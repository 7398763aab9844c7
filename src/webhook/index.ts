// Public surface of the webhook outbox for the recorder, API and CLI.
export { WebhookOutbox, JOURNAL_RELATIVE_PATH, type WebhookOutboxOptions, type OutboxStats } from './outbox.js';
export { WebhookDeliveriesSchema, WebhookDeliverySchema, DELIVERY_STATES, type WebhookDelivery, type DeliveryState } from './deliveries-schema.js';
export { parseWebhookUrls, DEFAULT_TIMEOUT_MS, type WebhookSettings, type GetWebhookSettings } from './settings.js';
export { BLOCKED_HOST_SUFFIXES, isBlockedHost } from './blocked-hosts.js';
export { buildV2Payload, type WebhookV2Payload } from './payload-v2.js';
export { buildV1Payload, type WebhookV1Payload } from './payload-v1.js';
export { USER_AGENT } from './sender.js';
