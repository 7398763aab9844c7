// The media path: FLV responses (chunked, video/x-flv) paced by the shared tick, with armed stream faults.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { takeFault } from './faults.js';
import { clientGone, sendText } from './http-util.js';
import { handleHls, isHlsPath } from './hls/hls-routes.js';
import { MediaConnection } from './media-connection.js';
import type { Pacer } from './pacer.js';
import { refuseFlv } from './live-stream/live-routes.js';
import { pushLog, type SimRoom } from './room.js';

const FLV_PATH = /^\/live-bvc\/\d+\/live_(\d+)_\d+(_prohevc|_av1|_bluray|_\d{4})?\.flv$/;

export interface MediaContext {
  findRoom(id: number, acceptsShortId: boolean): SimRoom | undefined;
  pacer: Pacer;
  port: number;
}

export function isMediaPath(path: string): boolean {
  return FLV_PATH.test(path) || isHlsPath(path);
}

export async function handleMedia(ctx: MediaContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const flv = FLV_PATH.exec(url.pathname);
  if (!flv) return handleHls((id) => ctx.findRoom(id, false), req, res, url);
  const room = ctx.findRoom(Number(flv[1]), false);
  const suffix = flv[2] === '_prohevc' || flv[2] === '_av1' ? undefined : flv[2] ?? '';
  if (!room || !room.formats.includes('flv') || (flv[2] === '_av1' && !room.av1)) return sendText(res, 404, 'Not Found');
  // A variant name only exists on rooms that offer variants, and only while the variant is offered.
  if (suffix && !room.variants) return sendText(res, 404, 'Not Found');
  room.counters.streamRequests++;
  pushLog(room.streamLog, { at: Date.now(), path: url.pathname, query: url.search, headers: req.headers });
  const fault = takeFault(room.requestFaults, Date.now());
  if (fault?.kind === 'stream-404') return sendText(res, 404, 'Not Found');
  if (fault?.kind === 'stream-403') return sendText(res, 403, 'Forbidden');
  if (fault?.kind === 'stream-delay') {
    await new Promise((r) => setTimeout(r, fault.delayMs));
    if (clientGone(res)) return;
  }
  if (fault?.kind === 'redirect') {
    // Redirect to the other loopback name so a client visibly changes host.
    const other = (req.headers.host ?? '').startsWith('localhost') ? '127.0.0.1' : 'localhost';
    const hop = Number(url.searchParams.get('sim_hop') ?? 0) + 1;
    url.searchParams.set('sim_hop', String(hop));
    res.writeHead(fault.status, { Location: `http://${other}:${ctx.port}${url.pathname}${url.search}`, 'Content-Length': 0 });
    return void res.end();
  }
  if (!room.live || (room.variants && suffix !== undefined && !room.variants.serves(suffix))) return sendText(res, 404, 'Not Found');
  if (refuseFlv(room, req)) return;
  res.writeHead(200, {
    'Content-Type': 'video/x-flv',
    'Cache-Control': 'no-cache',
    'Access-Control-Allow-Origin': 'https://live.bilibili.com',
    Connection: 'close',
    Server: 'Tengine',
  });
  res.flushHeaders();
  const now = performance.now();
  const conn = new MediaConnection(room, res, now, flv[2] === '_prohevc', flv[2] === '_av1', suffix ?? flv[2] ?? '');
  room.counters.streamConnections++;
  for (let i = 0; i < room.connectionFaults.length; i++) {
    const armed = room.connectionFaults[i]!;
    conn.addFault(armed.fault, now);
    if (--armed.remaining <= 0) room.connectionFaults.splice(i--, 1);
  }
  room.media.add(conn);
  room.counters.maxOpenStreams = Math.max(room.counters.maxOpenStreams, room.media.size);
  res.on('close', () => {
    conn.closed = true;
    room.media.delete(conn);
    // How long two responses of this room were both open: a reconnect overlaps for the instant before the old close
    // is seen; two recorders holding the room overlap for as long as both stay connected.
    const closedAt = performance.now();
    for (const other of room.media) {
      room.counters.maxStreamOverlapMs = Math.max(room.counters.maxStreamOverlapMs, Math.round(closedAt - Math.max(conn.connectedAt, other.connectedAt)));
    }
    ctx.pacer.remove(conn);
  });
  ctx.pacer.add(conn);
}
