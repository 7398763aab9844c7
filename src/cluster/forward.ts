// Relays one API request to the node that records the room (its advertised URL) and returns that node's answer as is.
import type { Context } from 'hono';
import { ApiErrorCode } from '../api/errors.js';
import { jsonResponse } from '../api/json.js';

/** Marks a relayed request, so a node that no longer owns the room answers instead of relaying again. */
export const FORWARDED_HEADER = 'x-liverec-forwarded-by';

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
    const res = await fetch(target, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(5000) });
    return new Response(await res.arrayBuffer(), { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? 'application/json; charset=utf-8' } });
  } catch (err) {
    return jsonResponse({ code: ApiErrorCode.Unknown, message: `the owner node did not answer: ${(err as Error).message}` }, 502);
  }
}
