// GET /file/**: work-directory downloads with Range (206/416), ETag and brec's MIME extras; folders get a listing.
import { createReadStream, type Dirent, type Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import type { ApiApp, ApiDeps } from './context.js';
import { ApiErrorCode, errorResponse } from './errors.js';
import { isInside, resolveInside, safeSegments } from './safe-path.js';

const MIME: Record<string, string> = {
  '.flv': 'video/x-flv', '.mp4': 'video/mp4', '.mkv': 'video/x-matroska', '.mk3d': 'video/x-matroska', '.mks': 'video/x-matroska',
  '.mka': 'audio/x-matroska', '.srt': 'text/plain', '.ass': 'text/plain', '.ssa': 'text/plain', '.txt': 'text/plain; charset=utf-8',
  '.xml': 'text/xml', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif',
  '.htm': 'text/html; charset=utf-8', '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.json': 'application/json; charset=utf-8',
};

const notFound = (): Response => errorResponse(404, ApiErrorCode.NotFound, 'File not found');
const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Parses a single `bytes=` range; undefined = ignore the header (serve everything), null = unsatisfiable. */
export function parseRange(header: string, size: number): { start: number; end: number } | null | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined; // malformed or multiple ranges: a full 200 is allowed
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return null;
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return undefined;
  }
  return start >= size || start > end ? null : { start, end };
}

async function listing(c: Context, dir: string, urlPath: string, workDir: string): Promise<Response> {
  const realRoot = await realpath(workDir);
  let dirents: Dirent[] = [];
  try {
    dirents = await readdir(dir, { withFileTypes: true });
  } catch {
    return notFound();
  }
  const items: string[] = [];
  for (const d of dirents) {
    if (d.name.startsWith('.')) continue;
    if (d.isSymbolicLink()) {
      const target = await realpath(join(dir, d.name)).catch(() => null);
      if (!target || !isInside(realRoot, target)) continue;
    }
    const slash = d.isDirectory() ? '/' : '';
    items.push(`<li><a href="./${encodeURIComponent(d.name)}${slash}">${escapeHtml(d.name)}${slash}</a></li>`);
  }
  const title = escapeHtml(urlPath);
  return c.html(`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><ul>${items.join('')}</ul></body></html>`);
}

function serveFile(c: Context, path: string, st: Stats): Response {
  const etag = `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  const headers: Record<string, string> = {
    'content-type': MIME[extname(path).toLowerCase()] ?? 'application/octet-stream',
    'accept-ranges': 'bytes',
    'etag': etag,
    'last-modified': st.mtime.toUTCString(),
    'cache-control': 'max-age=86400, must-revalidate',
  };
  if (c.req.header('if-none-match') === etag) return new Response(null, { status: 304, headers });
  const rangeHeader = c.req.header('range');
  const ifRange = c.req.header('if-range');
  const range = rangeHeader && (!ifRange || ifRange === etag) ? parseRange(rangeHeader, st.size) : undefined;
  if (range === null) {
    return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${st.size}` } });
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? st.size - 1;
  headers['content-length'] = String(Math.max(0, end - start + 1));
  if (range) headers['content-range'] = `bytes ${start}-${end}/${st.size}`;
  const status = range ? 206 : 200;
  if (c.req.method === 'HEAD' || st.size === 0) return new Response(null, { status, headers });
  const body = Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers });
}

export function registerFileDownloads(app: ApiApp, deps: ApiDeps): void {
  const handler = async (c: Context): Promise<Response> => {
    if (deps.fileBrowser === false) return notFound();
    // The raw path, decoded segment by segment here, so %2F or %2e%2e can never turn into structure.
    const urlPath = new URL(c.req.url).pathname;
    const segments = safeSegments(urlPath.slice('/file'.length), true);
    const target = segments && (await resolveInside(deps.recorder.workDir, segments));
    if (!target) return notFound();
    const st = await stat(target).catch(() => null);
    if (!st) return notFound();
    if (st.isDirectory()) return urlPath.endsWith('/') ? listing(c, target, urlPath, deps.recorder.workDir) : c.redirect(`${urlPath}/`, 301);
    return st.isFile() ? serveFile(c, target, st) : notFound();
  };
  app.get('/file', (c) => c.redirect('/file/', 301));
  app.get('/file/*', handler);
}
