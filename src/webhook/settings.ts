// Webhook settings read at send time: brec's WebHookUrls (v1) and WebHookUrlsV2 (v2), one URL per line.
import { redactUrl } from './redact-url.js';
import type { Logger } from '../log/logger.js';
import { rejectReason } from './blocked-hosts.js';

/** What the recorder hands over on every event; read fresh each time so edits apply without a restart. */
export interface WebhookSettings {
  webHookUrls?: string | null;
  webHookUrlsV2?: string | null;
  /** Per-attempt timeout in ms (default 10 000). */
  timeoutMs?: number;
}

export type GetWebhookSettings = () => WebhookSettings;

export const DEFAULT_TIMEOUT_MS = 10_000;

export interface ParsedUrls {
  urls: string[];
  rejected: { url: string; reason: string }[];
}

/** Splits on CR/LF, trims, drops empty lines; keeps duplicates (brec does too). */
export function parseWebhookUrls(raw: string | null | undefined): ParsedUrls {
  const out: ParsedUrls = { urls: [], rejected: [] };
  if (!raw || raw.trim() === '') return out;
  for (const line of raw.split(/[\r\n]+/)) {
    const url = line.trim();
    if (url === '') continue;
    const reason = rejectReason(url);
    if (reason) out.rejected.push({ url, reason });
    else out.urls.push(url);
  }
  return out;
}

export interface ResolvedSettings {
  v1: string[];
  v2: string[];
  timeoutMs: number;
}

/**
 * Parses the settings on each call but only re-parses (and re-warns) when the text changed, so a bad
 * URL is reported once per edit instead of once per event.
 */
export class WebhookSettingsReader {
  private cache = new Map<'v1' | 'v2', { raw: string; urls: string[] }>();

  constructor(
    private readonly get: GetWebhookSettings,
    private readonly log: Logger,
    private readonly defaultTimeoutMs = DEFAULT_TIMEOUT_MS,
  ) {}

  read(): ResolvedSettings {
    let s: WebhookSettings;
    try {
      s = this.get() ?? {};
    } catch (err) {
      this.log.error({ err }, 'webhook settings could not be read; sending nothing for this event');
      return { v1: [], v2: [], timeoutMs: this.defaultTimeoutMs };
    }
    const t = s.timeoutMs;
    const timeoutMs = typeof t === 'number' && Number.isFinite(t) && t > 0 ? Math.min(t, 2_147_483_647) : this.defaultTimeoutMs;
    return { v1: this.urls('v1', s.webHookUrls), v2: this.urls('v2', s.webHookUrlsV2), timeoutMs };
  }

  private urls(kind: 'v1' | 'v2', raw: string | null | undefined): string[] {
    const text = raw ?? '';
    const hit = this.cache.get(kind);
    if (hit && hit.raw === text) return hit.urls;
    const parsed = parseWebhookUrls(text);
    for (const r of parsed.rejected) {
      this.log.warn({ url: redactUrl(r.url), reason: r.reason, setting: kind === 'v1' ? 'WebHookUrls' : 'WebHookUrlsV2' }, 'webhook URL skipped');
    }
    this.cache.set(kind, { raw: text, urls: parsed.urls });
    return parsed.urls;
  }
}
