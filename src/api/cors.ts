// Cross-origin policy (CORS and CSRF): trusted origins get brec's CORS; others are refused without auth and kept from settings with it.
import type { MiddlewareHandler } from 'hono';
import type { ApiEnv } from './context.js';
import { ApiErrorCode, errorResponse } from './errors.js';

export interface CorsPolicy {
  /** Basic auth is on: untrusted origins get brec's reflected CORS, except for responses carrying settings. */
  auth: boolean;
  /** Origins allowed besides the API's own (`--http-cors-origin`); `*` trusts every origin (brec's behaviour). */
  origins: readonly string[];
}

/** `scheme://host[:port]` as a browser sends it in Origin, or null when the text is no http(s) origin. */
export function normalizeOrigin(text: string): string | null {
  const t = text.trim();
  if (t === '*') return '*';
  try {
    const u = new URL(t);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * Responses that carry settings (the Bilibili cookie among them) or may echo them (webhook deliveries and tests,
 * logs, the log files, and the event stream, whose `log` frames are the same lines as /api/log/fetch): never given
 * to an untrusted origin.
 */
const SETTINGS_PATH = /^\/+(?:api\/+config\/+global|api\/+room\/+[^/]+\/+config|file\/+config[^/]*|api\/+webhook\/+(?:deliveries|test|replay)|api\/+log\/+[^/]+|api\/+events|file\/+logs(?:\/.*)?)\/*$/i;

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export function carriesSettings(path: string): boolean {
  return SETTINGS_PATH.test(decodedPath(path));
}

const UNSAFE = (method: string): boolean => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
/** Bodies a page may send cross-origin without a preflight (HTML forms, fetch with text/plain). */
const SIMPLE_TYPES = new Set(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']);

function sameOrigin(origin: string, headers: Headers): boolean {
  // Set by browsers only (a forbidden header name), so it cannot be forged by a page; also right behind a proxy.
  if (headers.get('sec-fetch-site') === 'same-origin') return true;
  const host = headers.get('host');
  try {
    return host !== null && new URL(origin).host === host.trim().toLowerCase();
  } catch {
    return false;
  }
}

/** True when the request carries a body (a length above 0, or a chunked one); `content-length: 0` is no body. */
function hasBody(headers: Headers): boolean {
  const length = headers.get('content-length');
  if (length !== null) return length.trim() !== '0';
  return headers.has('transfer-encoding');
}

/** True when a browser must have sent a CORS preflight first: a body whose type a form cannot send. */
function preflighted(headers: Headers): boolean {
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return hasBody(headers) && type !== '' && !SIMPLE_TYPES.has(type);
}

const refuse = (message: string): Response =>
  errorResponse(403, ApiErrorCode.CrossOriginRefused, message, { vary: 'Origin' });

// Written by hand rather than hono/cors: that one re-wraps every response to merge headers set before the
// handler ran, which costs an extra Response copy on the hot GET /api/room/{id} path.
export function cors(policy: CorsPolicy): MiddlewareHandler<ApiEnv> {
  const any = policy.origins.includes('*');
  const allowed = new Set(policy.origins);
  return async (c, next) => {
    const method = c.req.method;
    const unsafe = UNSAFE(method);
    if (unsafe && /^\/api(\/|$)/i.test(c.req.path) && hasBody(c.req.raw.headers)) {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      // A form or text/plain body needs no preflight, so a body must be JSON. A request without a body carries no
      // form to forge (brec's SDK sends its bodiless POSTs as x-www-form-urlencoded): where it comes from decides.
      if (SIMPLE_TYPES.has(type)) {
        return errorResponse(415, ApiErrorCode.UnsupportedMediaType, `content-type ${type} is not accepted: send application/json`);
      }
    }
    const origin = c.req.header('origin');
    if (!origin) {
      // Browsers send Origin with every cross-site POST; Sec-Fetch-Site says cross-site even where one is stripped.
      if (unsafe && c.req.header('sec-fetch-site') === 'cross-site') return refuse('cross-origin request refused: Sec-Fetch-Site is cross-site');
      return next();
    }
    const trusted = any || allowed.has(origin.toLowerCase()) || sameOrigin(origin, c.req.raw.headers);
    if (!trusted) {
      const why = `origin ${origin} is not allowed (allow it with --http-cors-origin)`;
      if (!policy.auth) return refuse(`cross-origin request refused: ${why}`);
      // With auth, brec's CORS lets a foreign page send JSON after a preflight; a request that needed none (no body,
      // or a form/text one) would carry the browser's cached credentials without asking: refused.
      if (unsafe && !preflighted(c.req.raw.headers)) return refuse(`a state-changing request without a preflight is refused: ${why}`);
      if (method !== 'OPTIONS' && carriesSettings(c.req.path)) return refuse(`settings are not given to another origin: ${why}`);
      c.set('untrustedOrigin', true); // /graphql has no settings path: it refuses the settings fields itself
    }
    const requestedMethod = c.req.header('access-control-request-method');
    if (method === 'OPTIONS' && requestedMethod) {
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
