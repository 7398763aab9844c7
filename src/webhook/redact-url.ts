// Webhook URLs carry their receiver's secret (a token in the path or query): shown outside only as origin + a short tag.
import { createHash } from 'node:crypto';

/**
 * `https://host:port/…#1a2b3c4d`: enough to tell the receivers apart, nothing to call them with. The tag is the first
 * 8 hex digits of the URL's SHA-256 (the same URL always gives the same text, so a redacted URL can be matched back).
 */
export function redactUrl(url: string): string {
  const tag = createHash('sha256').update(url).digest('hex').slice(0, 8);
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? `${u.origin}/…#${tag}` : `${u.protocol}…#${tag}`;
  } catch {
    return `…#${tag}`;
  }
}

/** The URL among `candidates` that `shown` stands for (itself when it is no redacted form). */
export function unredactUrl(shown: string, candidates: Iterable<string>): string {
  for (const url of candidates) if (url === shown || redactUrl(url) === shown) return url;
  return shown;
}
