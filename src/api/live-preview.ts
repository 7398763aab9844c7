// GET /api/room/{id}/live.flv (.ts, .mp4 for HLS rooms) and POST /api/room/{id}/live-marker (liverec): the recording's own bytes as a live
// FLV for a few viewers per room (src/preview/), and a marker at the live position of the file being written.
import { createRoute, z } from '@hono/zod-openapi';
import { addMarker, MAX_LABEL } from '../clips/markers.js';
import { errorCode } from '../errors.js';
import type { Context } from 'hono';
import type { PreviewHub } from '../preview/preview-hub.js';
import type { PreviewFormat } from '../rooms/protocol.js';
import type { ApiApp, ApiDeps, ApiEnv } from './context.js';
import { ApiErrorCode, errorContent, errorResponse } from './errors.js';
import { sendJson } from './json.js';
import { MarkerSchema } from './markers.js';
import { RoomIdParams } from './room-id.js';
import { lookupRoom } from './room.js';
import { relativeToWork } from './work-file.js';

const responses = (type: string, what: string) => ({
  200: { content: { [type]: { schema: z.string().openapi({ format: 'binary' }) } }, description: what },
  400: { content: errorContent, description: 'Room id ≤ 0 (code -2)' },
  403: { content: errorContent, description: 'Asked for by another site\'s page (a media element sends no Origin; Sec-Fetch-Site says so) (code -16)' },
  404: { content: errorContent, description: 'Room not found (code -4)' },
  409: { content: errorContent, description: 'The room is not writing a recording of this format now (code -10; the message names the other URL when it writes the other format)' },
  429: { content: errorContent, description: 'PreviewMaxViewers readers already (or it is 0: the preview is off) (code -17)' },
});

const live = createRoute({
  method: 'get', path: '/api/room/{id}/live.flv', summary: 'Live preview of a recording room (liverec)', tags: ['Room'],
  description: 'liverec extension: the bytes the recorder is writing, as an endless FLV (header, sequence headers, the GOP so far, then '
    + 'live tags), without a second connection to the CDN. At most PreviewMaxViewers readers per room; a reader that falls 8 MiB behind '
    + 'is dropped (the recording never waits). The stream ends when the file is split or closed: reconnect. FLV recordings; HLS TS '
    + 'recordings at live.ts, HLS fMP4 ones at live.mp4. See docs/clips.md.',
  request: { params: RoomIdParams },
  responses: responses('video/x-flv', 'An FLV stream'),
});

const liveTs = createRoute({
  method: 'get', path: '/api/room/{id}/live.ts', summary: 'Live preview of a room recording HLS MPEG-TS (liverec)', tags: ['Room'],
  description: 'liverec extension: as live.flv, for a room whose recording is HLS MPEG-TS: the last whole segment, then each segment as '
    + 'it is written to the file (each starts with its PAT/PMT). See docs/clips.md.',
  request: { params: RoomIdParams },
  responses: responses('video/mp2t', 'An MPEG-TS stream'),
});

const liveMp4 = createRoute({
  method: 'get', path: '/api/room/{id}/live.mp4', summary: 'Live preview of a room recording HLS fMP4 (liverec)', tags: ['Room'],
  description: 'liverec extension: as live.flv, for a room whose recording is HLS fMP4: the file\'s init section (ftyp and moov as '
    + 'written, then liverec\'s source box), the fragments from the last one that begins with a keyframe, then each fragment as its '
    + 'segment is written to the file, byte for byte the file\'s. Decode times are the file\'s (a player seeks to the first buffered '
    + 'time). Plays through Media Source Extensions with the codecs of the moov. See docs/clips.md.',
  request: { params: RoomIdParams },
  responses: responses('video/mp4', 'A fragmented MP4 stream'),
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

const TYPES: Record<PreviewFormat, string> = { flv: 'video/x-flv', ts: 'video/mp2t', mp4: 'video/mp4' };

export function registerLivePreviewRoutes(app: ApiApp, deps: ApiDeps, hub: PreviewHub): void {
  const serve = (format: PreviewFormat) => async (c: Context<ApiEnv>): Promise<Response> => {
    // A page of another site may embed the stream in a <video> (no Origin, no CORS needed to play it) and take the
    // room's viewer slots: only the API's own pages, trusted origins and non-browser clients get it.
    const site = c.req.header('sec-fetch-site');
    if (c.get('untrustedOrigin') || (!c.req.header('origin') && (site === 'cross-site' || site === 'same-site'))) {
      return errorResponse(403, ApiErrorCode.CrossOriginRefused, 'the live preview is not given to another site\'s page');
    }
    const found = lookupRoom(deps, c, c.req.param('id') ?? '');
    if ('error' in found) return found.error as Response;
    try {
      const stream = await hub.join(found.room.roomId, format);
      const type = TYPES[format];
      return new Response(stream, { status: 200, headers: { 'content-type': type, 'cache-control': 'no-store', 'x-accel-buffering': 'no' } });
    } catch (err) {
      const code = errorCode(err);
      const message = (err as Error).message;
      if (code === 'PREVIEW_NOT_RECORDING' || code === 'PREVIEW_OTHER_FORMAT') return errorResponse(409, ApiErrorCode.InvalidRequest, message);
      if (code === 'PREVIEW_FULL' || code === 'PREVIEW_OFF') return errorResponse(429, ApiErrorCode.TooManyRequests, message);
      throw err;
    }
  };
  app.openapi(live, serve('flv') as never);
  app.openapi(liveTs, serve('ts') as never);
  app.openapi(liveMp4, serve('mp4') as never);
  app.openapi(marker, (c) => {
    const found = lookupRoom(deps, c, c.req.valid('param').id);
    if ('error' in found) return found.error as never;
    const { behindMs = 0, label = '' } = c.req.valid('json');
    const at = hub.position(found.room.roomId);
    // HLS segments are passed on whole, their times unread: the file's written duration is the live position there.
    if (at && hub.format(found.room.roomId) !== 'flv') at.atMs = Number(found.room.recordingStats.fileMaxTimestamp) || 0;
    if (!at) return sendJson(c, { code: ApiErrorCode.InvalidRequest, message: 'nobody watches this room\'s live preview: no live position' }, 409);
    const m = addMarker(at.path, Math.max(0, at.atMs - behindMs), label);
    return sendJson(c, { path: relativeToWork(deps, at.path), marker: m }, 200);
  });
}
