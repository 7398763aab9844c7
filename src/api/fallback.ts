// What no route answers: 404 JSON for unknown paths, 405 (with Allow) for known paths, JSON for every error.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { LiverecError } from '../errors.js';
import { logger } from '../log/logger.js';
import type { ApiApp } from './context.js';
import { ApiErrorCode, errorResponse } from './errors.js';

interface RoutePattern {
  method: string;
  regex: RegExp;
}

function compile(path: string): RegExp {
  const body = path
    .split('/')
    .map((seg) => (seg === '*' ? '.*' : seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}$`);
}

const CODES: Record<number, number> = {
  400: ApiErrorCode.InvalidRequest, 401: ApiErrorCode.Unauthorized, 404: ApiErrorCode.NotFound,
  405: ApiErrorCode.MethodNotAllowed, 413: ApiErrorCode.PayloadTooLarge, 415: ApiErrorCode.UnsupportedMediaType,
  403: ApiErrorCode.CrossOriginRefused, 429: ApiErrorCode.TooManyRequests, 507: ApiErrorCode.InsufficientStorage,
};

/** Installs notFound (404/405) and onError; call after every route is registered. */
export function installFallbacks(app: ApiApp): void {
  const patterns: RoutePattern[] = app.routes
    .filter((r) => r.method !== 'ALL' && r.path !== '/*')
    .map((r) => ({ method: r.method, regex: compile(r.path) }));

  app.notFound((c: Context) => {
    const path = c.req.path;
    const allowed = new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method));
    if (allowed.has('GET')) allowed.add('HEAD');
    // A route of this method exists but found nothing (a handler's own notFound): that is a 404, not a 405.
    if (allowed.size > 0 && !allowed.has(c.req.method)) {
      return errorResponse(405, ApiErrorCode.MethodNotAllowed, `method ${c.req.method} is not allowed on ${path}`, { allow: [...allowed].join(', ') });
    }
    return errorResponse(404, ApiErrorCode.NotFound, `no such path: ${path}`);
  });

  app.onError((err, c) => {
    // A save that failed was undone (ConfigStore.commit): the client learns why and nothing changed.
    if (err instanceof LiverecError && err.code === 'CONFIG_DISK_FULL') {
      logger().error({ err, method: c.req.method, path: c.req.path }, 'config not saved: disk full; the change was not applied');
      return errorResponse(507, ApiErrorCode.InsufficientStorage, `${err.message}; the change was not applied`);
    }
    if (err instanceof LiverecError && err.code === 'ROOM_LIMIT') return errorResponse(409, ApiErrorCode.RoomLimitReached, err.message);
    if (err instanceof HTTPException && err.status < 500) {
      return errorResponse(err.status, CODES[err.status] ?? ApiErrorCode.InvalidRequest, err.message || 'bad request');
    }
    logger().error({ err, method: c.req.method, path: c.req.path }, 'API request failed');
    return errorResponse(500, ApiErrorCode.Unknown, 'internal server error');
  });
}
