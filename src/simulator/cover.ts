// Room covers: getInfoByRoom's room_info.cover points here (the service serves them from i0.hdslb.com), one small JPEG.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The path part of a room's cover URL, as the service names them (/bfs/live/new_room_cover/<hash>.jpg). */
export const COVER_PREFIX = '/bfs/live/new_room_cover/';
export const coverPath = (roomId: number): string => `${COVER_PREFIX}sim-${roomId}.jpg`;

/** A 16x9 JPEG in bilibili pink (made with ffmpeg's lavfi color source). */
export const COVER_JPEG = Buffer.from('/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU4LjQyLjEwMAD/2wBDAAgEBAQEBAUFBQUFBQYGBgYGBgYGBgYGBgYHBwcICAgHBwcGBgcHCAgICAkJCQgICAgJCQoKCgwMCwsODg4RERT/xABMAAEBAAAAAAAAAAAAAAAAAAAABgEBAQAAAAAAAAAAAAAAAAAAAgcQAQAAAAAAAAAAAAAAAAAAAAARAQAAAAAAAAAAAAAAAAAAAAD/wAARCAAIABADASIAAhEAAxEA/9oADAMBAAIRAxEAPwCgABQX/9k=', 'base64');

/** Serves a known room's cover like the image CDN: image/jpeg, 404 for anything else under the prefix. */
export function handleCover(req: IncomingMessage, res: ServerResponse, url: URL, roomExists: (id: number) => boolean): void {
  const m = /^\/bfs\/live\/new_room_cover\/sim-(\d+)\.jpg$/.exec(url.pathname);
  if (!m || !roomExists(Number(m[1])) || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': COVER_JPEG.length, 'cache-control': 'max-age=3600' });
  res.end(req.method === 'HEAD' ? undefined : COVER_JPEG);
}
