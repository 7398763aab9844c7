// GET /api/events: the Server-Sent Events stream (lifecycle events, room changes, stats snapshots, log lines), documented in OpenAPI.
import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../context.js';
import { ApiErrorCode, errorContent, errorResponse } from '../errors.js';
import type { EventHub } from './hub.js';
import { parseEventId } from './sse-frame.js';

const DESCRIPTION = [
  'liverec: a Server-Sent Events stream (text/event-stream). Event types:',
  '- `hello` {newestId, oldestId}: sent first on every connection.',
  '- `lifecycle` (has an id): a webhook v2 payload {EventType, EventTimestamp, EventId, EventData} (EventId is the stream\'s own, not the webhook delivery\'s); FileOpening/FileClosed EventData carry liverec\'s `Source` (WebhookEventSource).',
  '- `room` (has an id): a RoomDto, sent when a room is added or its state, names or autoRecord change.',
  '- `room-removed` (has an id): {objectId, roomId}.',
  '- `stats` (no id, at most once a second): {time, limiterPausedUntil, rooms: [{objectId, roomId, health, recording, streaming, danmakuConnected, networkMbps, durationRatio, sessionDuration, totalInputBytes, totalOutputBytes, currentFileSize, fileMaxTimestamp}]}; health is ok, rate-limited, stalled, no-stream or error.',
  '- `room-stats` (no id, only with `room`): the full RoomDto of that room plus `health`, instead of `stats`.',
  '- `log` (no id): {id, log} with a CLEF log object, as in /api/log/fetch.',
  '- `danmaku` (no id, only with `room`, only while the room\'s live preview is watched): {roomId, text, color, user}, a comment or super chat as it arrives.',
  '- `reset` {reason, newestId}: the requested Last-Event-ID is no longer buffered; reload the state from the REST API.',
  'Resume: the `Last-Event-ID` header (EventSource sends it on reconnect) or the `lastEventId` query replays every id-carrying event after it',
  'from a bounded in-memory buffer (the last 2000). `lastEventId=0` replays the whole buffer. A client that falls 1 MiB behind is disconnected and resumes.',
].join('\n');

const query = z.object({
  lastEventId: z.string().optional().openapi({ description: 'Resume after this id (the Last-Event-ID header wins)', example: '0' }),
  room: z.string().optional().openapi({ description: 'Only this room id: its events, logs and full `room-stats` snapshots', example: '10001' }),
});

export function registerEventRoutes(app: ApiApp, hub: EventHub): void {
  app.openAPIRegistry.registerPath({
    method: 'get', path: '/api/events', summary: 'Live event stream (liverec)', tags: ['Events'], description: DESCRIPTION,
    request: { query, headers: z.object({ 'last-event-id': z.string().optional().openapi({ description: 'Resume after this id' }) }) },
    responses: {
      200: { description: 'An endless text/event-stream', content: { 'text/event-stream': { schema: z.string() } } },
      400: { content: errorContent, description: '`room` is not a room id (-10)' },
    },
  });
  app.get('/api/events', (c) => {
    const roomParam = c.req.query('room');
    const roomId = roomParam === undefined ? null : /^\d{1,10}$/.test(roomParam) ? Number(roomParam) : NaN;
    if (Number.isNaN(roomId)) return errorResponse(400, ApiErrorCode.InvalidRequest, 'room: expected a room id');
    const lastEventId = parseEventId(c.req.header('last-event-id')) ?? parseEventId(c.req.query('lastEventId'));
    const stream = hub.connect({ lastEventId, roomId });
    return new Response(stream, {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
    });
  });
}
