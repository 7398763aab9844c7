// /api/file/markers (liverec addition): moments marked on a recording, kept in `<name>.markers.json` beside it.
import { createRoute, z } from '@hono/zod-openapi';
import { addMarker, MAX_LABEL, readMarkers, removeMarker, type Marker } from '../clips/markers.js';
import { errorCode } from '../errors.js';
import type { ApiApp, ApiDeps } from './context.js';
import { errorContent } from './errors.js';
import { sendJson } from './json.js';
import { invalid, noSuchFile, relativeToWork, workFile } from './work-file.js';

export const MarkerSchema = z.object({
  id: z.string(),
  atMs: z.number().int().openapi({ description: 'Milliseconds on the recording\'s timeline' }),
  label: z.string(),
  createdAt: z.string().openapi({ description: 'ISO 8601' }),
}).openapi('Marker');

const MarkersSchema = z.object({
  path: z.string().openapi({ description: 'The recording, relative to the work directory' }),
  markers: z.array(MarkerSchema).openapi({ description: 'By time' }),
}).openapi('Markers');

const PathQuery = z.object({ path: z.string().min(1).openapi({ description: 'The recording, relative to the work directory' }) });
const tags = ['File'];
const description = 'liverec extension: markers are stored beside the recording as `<name>.markers.json` (the danmaku XML is never changed). See docs/clips.md.';
const errors = {
  400: { content: errorContent, description: 'Invalid request or an unreadable markers file (-10)' },
  404: { content: errorContent, description: 'No such recording or marker (-12)' },
};

const list = createRoute({
  method: 'get', path: '/api/file/markers', summary: 'Markers of a recording (liverec)', tags, description,
  request: { query: PathQuery },
  responses: { 200: { content: { 'application/json': { schema: MarkersSchema } }, description: 'The markers' }, ...errors },
});

const add = createRoute({
  method: 'post', path: '/api/file/markers', summary: 'Mark a moment of a recording (liverec)', tags, description,
  request: {
    body: {
      content: { 'application/json': { schema: z.object({
        path: z.string().min(1),
        atMs: z.number().min(0).openapi({ description: 'Milliseconds on the recording\'s timeline' }),
        label: z.string().max(MAX_LABEL).optional(),
      }).openapi('AddMarkerDto') } },
    },
  },
  responses: { 200: { content: { 'application/json': { schema: MarkerSchema } }, description: 'The new marker' }, ...errors },
});

const remove = createRoute({
  method: 'delete', path: '/api/file/markers/{markerId}', summary: 'Remove a marker (liverec)', tags, description,
  request: { params: z.object({ markerId: z.string().min(1).max(64) }), query: PathQuery },
  responses: { 200: { content: { 'application/json': { schema: MarkersSchema } }, description: 'The markers left' }, ...errors },
});

/** Runs a markers change; its LiverecError becomes a 400 with the code in the message. */
function attempt<T>(body: () => T): { ok: true; value: T } | { ok: false; message: string } {
  try {
    return { ok: true, value: body() };
  } catch (err) {
    return { ok: false, message: `${(err as Error).message} (${errorCode(err)})` };
  }
}

export function registerMarkerRoutes(app: ApiApp, deps: ApiDeps): void {
  app.openapi(list, async (c) => {
    const { path } = c.req.valid('query');
    const full = await workFile(deps, path);
    if (!full) return noSuchFile(c, path);
    const r = attempt(() => readMarkers(full));
    return r.ok ? sendJson(c, { path: relativeToWork(deps, full), markers: r.value }, 200) : invalid(c, r.message);
  });
  app.openapi(add, async (c) => {
    const { path, atMs, label } = c.req.valid('json');
    const full = await workFile(deps, path);
    if (!full) return noSuchFile(c, path);
    const r = attempt((): Marker => addMarker(full, atMs, label ?? ''));
    return r.ok ? sendJson(c, r.value, 200) : invalid(c, r.message);
  });
  app.openapi(remove, async (c) => {
    const { path } = c.req.valid('query');
    const { markerId: id } = c.req.valid('param');
    const full = await workFile(deps, path);
    if (!full) return noSuchFile(c, path);
    const r = attempt(() => removeMarker(full, id));
    if (!r.ok) return invalid(c, r.message);
    if (!r.value) return noSuchFile(c, `marker ${id} of ${path}`);
    return sendJson(c, { path: relativeToWork(deps, full), markers: readMarkers(full) }, 200);
  });
}
