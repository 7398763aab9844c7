// Relays one API request to the node that records the room (its advertised URL) and returns that node's answer as is.
import type { Context } from 'hono';
import { request, type Dispatcher } from 'undici';
import { ApiErrorCode } from '../api/errors.js';
import { jsonResponse } from '../api/json.js';

/** Marks a relayed request, so a node that no longer owns the room answers instead of relaying again. */
export const FORWARDED_HEADER = 'x-liverec-forwarded-by';

/** A loaded owner node may take seconds to answer; the user's request waits that long rather than failing. */
const RELAY_TIMEOUT_MS = 15_000;

export async function forwardTo(c: Context, advertise: string, fromNode: string): Promise<Response> {
  const incoming = new URL(c.req.url);
  const target = new URL(incoming.pathname + incoming.search, advertise);
  const headers: Record<string, string> = { [FORWARDED_HEADER]: fromNode };
  for (const name of ['authorization', 'content-type', 'accept']) {
    const value = c.req.header(name);
    if (value) headers[name] = value;
  }
  const method = c.req.method;
  const body = method === 'GET' || method === 'HEAD' ? undefined : await c.req.arrayBuffer();
  try {
    // A fresh connection per relay (`reset`): a kept-alive one that the owner closes as idle just as the relay reuses
    // it fails a POST that cannot be retried safely (a 502 seen under load). Relays are a user's own actions: rare.
    const res = await request(target, { method: method as Dispatcher.HttpMethod, headers, body: body ? Buffer.from(body) : undefined, reset: true, signal: AbortSignal.timeout(RELAY_TIMEOUT_MS) });
    const content = Buffer.from(await res.body.arrayBuffer());
    const type = res.headers['content-type'];
    return new Response(content, { status: res.statusCode, headers: { 'content-type': (Array.isArray(type) ? type[0] : type) ?? 'application/json; charset=utf-8' } });
  } catch (err) {
    return jsonResponse({ code: ApiErrorCode.Unknown, message: `the owner node did not answer: ${(err as Error).message}` }, 502);
  }
}
