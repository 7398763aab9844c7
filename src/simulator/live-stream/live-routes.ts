// Media-path hooks of live-stream rooms: flv-outage refusals and the fMP4 HLS served from the live stream.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendText } from '../http-util.js';
import { pushLog, type SimRoom } from '../room.js';
import { liveInit, livePlaylist, liveSegment } from './live-hls.js';

const HEADERS = { 'Cache-Control': 'no-cache', 'Access-Control-Allow-Origin': 'https://live.bilibili.com', Server: 'Tengine' };

/** During an flv-outage the FLV endpoint drops the connection without an answer (true: handled). */
export function refuseFlv(room: SimRoom, req: IncomingMessage): boolean {
  if (!room.liveStream?.flvDown()) return false;
  req.socket.destroy();
  return true;
}

/**
 * Serves a live-stream room's fMP4 HLS request (true: handled). TS requests fall through to the clip timeline
 * (hls/hls-timeline.ts): the one-clock HLS is muxed from the FLV frames, which only the fMP4 packaging carries byte
 * for byte, so a room's TS does not align with its FLV.
 */
export function handleLiveHls(room: SimRoom, fmp4: boolean, name: string, req: IncomingMessage, res: ServerResponse, url: URL): boolean {
  const stream = room.liveStream;
  if (!stream || !fmp4) return false;
  if (!room.live) {
    sendText(res, 404, 'Not Found');
    return true;
  }
  let body: Buffer | string | null;
  let type = 'video/iso.segment';
  if (name.endsWith('.m3u8')) {
    room.counters.hlsPlaylistRequests++;
    pushLog(room.streamLog, { at: Date.now(), path: url.pathname, query: url.search, headers: req.headers });
    const frozen = stream.playlistFrozen;
    if (frozen && Date.now() < frozen.until) body = frozen.text ??= livePlaylist(room, stream);
    else body = livePlaylist(room, stream);
    type = 'application/vnd.apple.mpegurl';
  } else if (name.startsWith('h')) {
    body = liveInit(room, stream, name);
    type = 'video/mp4';
  } else {
    room.counters.hlsSegmentRequests++;
    body = liveSegment(room, stream, Number(/(\d+)\.m4s$/.exec(name)![1]));
    if (body) {
      room.counters.hlsSegmentsServed++;
      room.counters.hlsBytesServed += body.length;
    }
  }
  if (body === null) {
    sendText(res, 404, 'Not Found');
    return true;
  }
  res.writeHead(200, { ...HEADERS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
  return true;
}
