// CORS like brec's default policy: reflect any origin with credentials, any method and header, 5-minute preflights.
import type { MiddlewareHandler } from 'hono';
import type { ApiEnv } from './context.js';

// Written by hand rather than hono/cors: that one re-wraps every response to merge headers set before the
// handler ran, which costs an extra Response copy on the hot GET /api/room/{id} path.
export function cors(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (!origin) return next();
    const requestedMethod = c.req.header('access-control-request-method');
    if (c.req.method === 'OPTIONS' && requestedMethod) {
      const headers: Record<string, string> = {
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': requestedMethod,
        'access-control-max-age': '300',
        'vary': 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
      };
      const requestedHeaders = c.req.header('access-control-request-headers');
      if (requestedHeaders) headers['access-control-allow-headers'] = requestedHeaders;
      return new Response(null, { status: 204, headers });
    }
    await next();
    let h = c.res.headers;
    try {
      h.set('access-control-allow-origin', origin);
    } catch {
      // Immutable headers (a fetched or static Response): copy once, then decorate.
      c.res = new Response(c.res.body, c.res);
      h = c.res.headers;
    }
    h.set('access-control-allow-origin', origin);
    h.set('access-control-allow-credentials', 'true');
    h.set('access-control-expose-headers', 'Content-Length');
    h.append('vary', 'Origin');
  };
}
