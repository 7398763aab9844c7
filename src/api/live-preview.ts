// GET /api/room/{id}/live.flv and POST /api/room/{id}/live-marker (liverec): the recording's own bytes as a live
// FLV for a few viewers per room (src/preview/), and a marker at the live position of the file being written.
import { createRoute, z } from '@hono/zod-openapi';
import { addMarker, MAX_LABEL } from '../clips/markers.js';
import { errorCode } from '../errors.js';
import type { PreviewHub } from '../preview/preview-hub.js';
import type { ApiApp, ApiDeps } from './context.js';
import { ApiErrorCode, errorContent, errorResponse } from './errors.js';
import { sendJson } from './json.js';
import { MarkerSchema } from './markers.js';
import { RoomIdParams } from './room-id.js';
import { lookupRoom } from './room.js';
import { relativeToWork } from './work-file.js';

const live = createRoute({
  method: 'get', path: '/api/room/{id}/live.flv', summary: 'Live preview of a recording room (liverec)', tags: ['Room'],
  description: 'liverec extension: the bytes the recorder is writing, as an endless FLV (header, sequence headers, the GOP so far, then '
    + 'live tags), without a second connection to the CDN. At most PreviewMaxViewers readers per room; a reader that falls 8 MiB behind '
    + 'is dropped (the recording never waits). The stream ends when the file is split or closed: reconnect. FLV recordings only. See docs/clips.md.',
  request: { params: RoomIdParams },
  responses: {
    200: { content: { 'video/x-flv': { schema: z.string().openapi({ format: 'binary' }) } }, description: 'An FLV stream' },
    400: { content: errorContent, description: 'Room id ≤ 0 (code -2)' },
    403: { content: errorContent, description: 'Asked for by another site\'s page (a media element sends no Origin; Sec-Fetch-Site says so) (code -16)' },
    404: { content: errorContent, description: 'Room not found (code -4)' },
    409: { content: errorContent, description: 'The room is not writing an FLV recording now (code -10)' },
    429: { content: errorContent, description: 'PreviewMaxViewers readers already (or it is 0: the preview is off) (code -17)' },
  },
});

const marker = createRoute({
  method: 'post', path: '/api/room/{id}/live-marker', summary: 'Mark the live position of a recording room (liverec)', tags: ['Room'],
  description: 'liverec extension: while the room\'s live preview is watched, adds a marker to the file being written at its latest '
    + 'written time minus `behindMs` (how far the player is behind the live edge). See docs/clips.md.',
  request: {
    params: RoomIdParams,
    body: { content: { 'application/json': { schema: z.object({
      behindMs: z.number().min(0).max(600_000).optional(),
      label: z.string().max(MAX_LABEL).optional(),
    }).openapi('LiveMarkerDto') } } },
  },
  responses: {
    200: { content: { 'application/json': { schema: z.object({ path: z.string(), marker: MarkerSchema }).openapi('LiveMarker') } }, description: 'The marker and its file' },
    400: { content: errorContent, description: 'Room id ≤ 0 (code -2), or an invalid body (-10)' },
    404: { content: errorContent, description: 'Room not found (code -4)' },
    409: { content: errorContent, description: 'Nobody watches the room\'s live preview, so there is no live position (code -10)' },
  },
});

export function registerLivePreviewRoutes(app: ApiApp, deps: ApiDeps, hub: PreviewHub): void {
  app.openapi(live, async (c) => {
    // A page of another site may embed the stream in a <video> (no Origin, no CORS needed to play it) and take the
    // room's viewer slots: only the API's own pages, trusted origins and non-browser clients get it.
    const site = c.req.header('sec-fetch-site');
    if (c.get('untrustedOrigin') || (!c.req.header('origin') && (site === 'cross-site' || site === 'same-site'))) {
      return errorResponse(403, ApiErrorCode.CrossOriginRefused, 'the live preview is not given to another site\'s page') as never;
    }
    const found = lookupRoom(deps, c, c.req.valid('param').id);
    if ('error' in found) return found.error as never;
    try {
      const stream = await hub.join(found.room.roomId);
      return new Response(stream, { status: 200, headers: { 'content-type': 'video/x-flv', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } }) as never;
    } catch (err) {
      const code = errorCode(err);
      const message = (err as Error).message;
      if (code === 'PREVIEW_NOT_RECORDING') return errorResponse(409, ApiErrorCode.InvalidRequest, message) as never;
      if (code === 'PREVIEW_FULL' || code === 'PREVIEW_OFF') return errorResponse(429, ApiErrorCode.TooManyRequests, message) as never;
      throw err;
    }
  });
  app.openapi(marker, (c) => {
    const found = lookupRoom(deps, c, c.req.valid('param').id);
    if ('error' in found) return found.error as never;
    const { behindMs = 0, label = '' } = c.req.valid('json');
    const at = hub.position(found.room.roomId);
    if (!at) return sendJson(c, { code: ApiErrorCode.InvalidRequest, message: 'nobody watches this room\'s live preview: no live position' }, 409);
    const m = addMarker(at.path, Math.max(0, at.atMs - behindMs), label);
    return sendJson(c, { path: relativeToWork(deps, at.path), marker: m }, 200);
  });
}
