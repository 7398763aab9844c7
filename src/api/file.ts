// GET /api/file: brec's file browser listing of a work-directory folder (dot entries hidden, confined, path echoed).
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createRoute, z } from '@hono/zod-openapi';
import { formatUtc } from '../time.js';
import type { ApiApp, ApiDeps } from './context.js';
import { errorContent } from './errors.js';
import { sendJson } from './json.js';
import { isInside, resolveInside, safeSegments } from './safe-path.js';
import { DateTimeOffsetSchema, Int64Schema } from './schemas.js';

const FolderSchema = z.object({ isFolder: z.literal(true), name: z.string(), lastModified: DateTimeOffsetSchema }).openapi('FolderDto');
const FileSchema = z
  .object({ isFolder: z.literal(false), name: z.string(), lastModified: DateTimeOffsetSchema, size: Int64Schema, url: z.string().openapi({ example: '/file/23058-name/x.flv' }) })
  .openapi('FileDto');
export const FileApiResultSchema = z
  .object({
    exist: z.boolean(),
    path: z.string().openapi({ description: 'The requested path, echoed verbatim ("" when not found)' }),
    files: z.array(z.union([FileSchema, FolderSchema]).openapi('FileLikeDto')).openapi({ description: 'Unsorted (file system order)' }),
  })
  .openapi('FileApiResult');
type FileLike = z.infer<typeof FileSchema> | z.infer<typeof FolderSchema>;

const route = createRoute({
  method: 'get', path: '/api/file', summary: '获取录播目录文件信息', tags: ['File'],
  request: { query: z.object({ path: z.string().optional().openapi({ description: 'Folder relative to the work directory, e.g. / or /sub/' }) }) },
  responses: {
    200: { content: { 'application/json': { schema: FileApiResultSchema } }, description: 'exist false when the folder is missing, hidden, outside the work directory, or browsing is disabled' },
    400: { content: errorContent, description: 'Invalid query (-10)' },
  },
});

const NOT_FOUND = { exist: false, path: '', files: [] as FileLike[] };

async function entry(dir: string, realRoot: string, d: Dirent, urlBase: string): Promise<FileLike | null> {
  const full = join(dir, d.name);
  try {
    // Symlinks are followed only when they stay inside the work directory.
    if (d.isSymbolicLink() && !isInside(realRoot, await realpath(full))) return null;
    const st = await stat(full);
    const lastModified = formatUtc(st.mtime);
    if (st.isDirectory()) return { isFolder: true, name: d.name, lastModified };
    if (!st.isFile()) return null;
    return { isFolder: false, name: d.name, lastModified, size: st.size, url: `${urlBase}/${d.name}` };
  } catch {
    return null; // vanished or unreadable meanwhile
  }
}

export function registerFileRoutes(app: ApiApp, deps: ApiDeps): void {
  app.openapi(route, async (c) => {
    const { path } = c.req.valid('query');
    if (deps.fileBrowser === false || !path) return sendJson(c, NOT_FOUND, 200);
    const segments = safeSegments(path);
    const dir = segments && (await resolveInside(deps.recorder.workDir, segments));
    if (!segments || !dir) return sendJson(c, NOT_FOUND, 200);
    let dirents: Dirent[];
    try {
      dirents = await readdir(dir, { withFileTypes: true });
    } catch {
      return sendJson(c, NOT_FOUND, 200); // not a directory, or unreadable
    }
    const realRoot = await realpath(deps.recorder.workDir);
    const urlBase = ['/file', ...segments].join('/');
    const files = (await Promise.all(dirents.filter((d) => !d.name.startsWith('.')).map((d) => entry(dir, realRoot, d, urlBase))))
      .filter((f): f is FileLike => f !== null);
    return sendJson(c, { exist: true, path, files }, 200);
  });
}
