// GET /api/history (liverec): each room's last hour of bitrate, pace and written bytes, for the UI's charts.
import { createRoute, z } from '@hono/zod-openapi';
import type { ApiApp } from '../context.js';
import { errorContent } from '../errors.js';
import { sendJson } from '../json.js';
import type { RoomHistory } from './room-history.js';

const SeriesSchema = z.object({
  objectId: z.string().openapi({ description: 'The room\'s objectId in this run' }),
  roomId: z.number().int(),
  t: z.array(z.number()).openapi({ description: 'Sample times, Unix milliseconds, oldest first' }),
  mbps: z.array(z.number()).openapi({ description: 'ioStats.networkMbps at each sample (mebibits/s)' }),
  pace: z.array(z.number().nullable()).openapi({ description: 'recordingStats.durationRatio at each sample; null while it is NaN (not recording)' }),
  bytes: z.array(z.number()).openapi({ description: 'recordingStats.totalOutputBytes at each sample (the session\'s bytes written)' }),
}).openapi('RoomHistory');

const HistorySchema = z.object({
  intervalMs: z.number().int().openapi({ description: 'Time between samples' }),
  spanMs: z.number().int().openapi({ description: 'How far back the samples reach' }),
  rooms: z.array(SeriesSchema),
}).openapi('RoomHistoryList');

const route = createRoute({
  method: 'get', path: '/api/history', summary: 'Rooms\' recent bitrate, pace and bytes (liverec)', tags: ['Room'],
  description: 'liverec extension: the server samples every room every few seconds and keeps the last hour in memory (lost on restart), so charts survive a page reload.',
  request: { query: z.object({ room: z.string().regex(/^\d{1,10}$/, 'expected a room id').optional().openapi({ description: 'Only this room id', example: '10001' }) }) },
  responses: {
    200: { content: { 'application/json': { schema: HistorySchema } }, description: 'One series per room (an unknown room id gives an empty list)' },
    400: { content: errorContent, description: '`room` is not a room id (-10)' },
  },
});

export function registerHistoryRoutes(app: ApiApp, history: RoomHistory): void {
  app.openapi(route, (c) => {
    const { room } = c.req.valid('query');
    return sendJson(c, { intervalMs: history.intervalMs, spanMs: history.spanMs, rooms: history.series(room === undefined ? null : Number(room)) }, 200);
  });
}
