// JSON wire helpers: brec's content type, and non-finite doubles as the strings Newtonsoft writes.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const JSON_HEADERS = { 'content-type': JSON_CONTENT_TYPE } as const;

export type WireDouble = number | 'NaN' | 'Infinity' | '-Infinity';

/** A double as brec writes it: NaN and ±Infinity become strings (JSON.stringify would write null). */
export function wireDouble(n: number): WireDouble {
  if (Number.isFinite(n)) return n;
  return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
}

/** `c.json` with brec's content type; the status is always explicit so routes stay typed against their schema. */
export function sendJson<T, S extends ContentfulStatusCode>(c: Context, body: T, status: S) {
  return c.json(body, status, JSON_HEADERS);
}

/** A stand-alone JSON response (middleware and error paths that have no typed route). */
export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}
