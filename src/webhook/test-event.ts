// "Send test event": one attempt to every configured webhook URL with a Test envelope, reported per URL (nothing journaled).
import { randomUUID } from 'node:crypto';
import { formatLocal } from '../time.js';
import { sendOnce } from './sender.js';
import { DEFAULT_TIMEOUT_MS, parseWebhookUrls, type WebhookSettings } from './settings.js';

export interface TestDeliveryResult {
  url: string;
  version: 1 | 2;
  ok: boolean;
  status: number | null;
  error: string | null;
}

/**
 * Both versions get the same v2-shaped envelope with EventType "Test": a v1 receiver would take a v1 payload
 * for a real closed file, and brec has no test event of its own to copy.
 */
export async function sendTestEvent(settings: WebhookSettings): Promise<TestDeliveryResult[]> {
  const body = JSON.stringify({
    EventType: 'Test', EventTimestamp: formatLocal(), EventId: randomUUID(),
    EventData: { Message: 'liverec test event: webhooks reach this URL' },
  });
  const targets: { url: string; version: 1 | 2 }[] = [
    ...parseWebhookUrls(settings.webHookUrls).urls.map((url) => ({ url, version: 1 as const })),
    ...parseWebhookUrls(settings.webHookUrlsV2).urls.map((url) => ({ url, version: 2 as const })),
  ];
  const timeout = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return Promise.all(targets.map(async ({ url, version }) => {
    const outcome = await sendOnce(url, body, timeout, AbortSignal.timeout(timeout + 1000));
    return { url, version, ok: outcome.ok, status: outcome.status ?? null, error: outcome.ok ? null : outcome.error };
  }));
}
