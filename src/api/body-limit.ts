// Request bodies are read once, up to 1 MiB, into hono's body cache; larger bodies get a 413 JSON error.
import type { MiddlewareHandler } from 'hono';
import type { ApiEnv } from './context.js';
import { ApiErrorCode, errorResponse } from './errors.js';

// Not hono/body-limit: for bodies without Content-Length it rebuilds the request with the global Request
// constructor, which cannot take @hono/node-server's request object once overrideGlobalObjects is false (a 500).
export function bodyLimit(maxBytes: number): MiddlewareHandler<ApiEnv> {
  // Connection: close, because the rest of the body is never read: a keep-alive client reusing the connection
  // would otherwise have its next request swallowed (seen as "socket hang up").
  const tooLarge = (): Response =>
    errorResponse(413, ApiErrorCode.PayloadTooLarge, `request body exceeds ${maxBytes} bytes`, { connection: 'close' });
  return async (c, next) => {
    // Reading `raw.body` makes @hono/node-server build a full Request (with an AbortSignal): ~20% of the
    // API's CPU under a GET load. Methods without a body skip it; their body, if any, is never read.
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    const raw = c.req.raw;
    if (!raw.body) return next();
    const declared = raw.headers.get('content-length');
    if (declared !== null && !raw.headers.has('transfer-encoding') && Number(declared) > maxBytes) return tooLarge();
    const reader = raw.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return tooLarge();
      }
      chunks.push(value);
    }
    const bytes = Buffer.concat(chunks, size);
    // hono's HonoRequest derives json()/text()/arrayBuffer() from this cache, so the stream is never read twice.
    // At runtime the cache holds promises (its .d.ts says otherwise), hence the cast.
    const cache = c.req.bodyCache as Record<string, Promise<unknown>>;
    cache.arrayBuffer = Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + size));
    cache.text = Promise.resolve(bytes.toString('utf8'));
    return next();
  };
}
