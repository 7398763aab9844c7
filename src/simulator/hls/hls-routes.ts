// The HLS media path: live playlists, init sections and segments (fMP4 and TS) for rooms that offer them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientGone, sendText } from '../http-util.js';
import { pushLog, type SimRoom } from '../room.js';
import type { HlsFormat } from './hls-clips.js';
import { timelineOf } from './hls-timeline.js';
import { handleLiveHls } from '../live-stream/live-routes.js';

// fMP4: …/live_<room>_<n>[_prohevc|_av1]/index.m3u8, …/<seq>.m4s, …/h<id>.m4s; TS: …/live_<room>_<n>[_prohevc|_av1].m3u8, …/live_<room>_<n>[…]-<seq>.ts
const FMP4_PATH = /^\/live-bvc\/\d+\/live_(\d+)_\d+(_prohevc|_av1)?\/(index\.m3u8|\d+\.m4s|h\d+\.m4s)$/;
const TS_PATH = /^\/live-bvc\/\d+\/live_(\d+)_\d+(_prohevc|_av1)?(\.m3u8|-\d+\.ts)$/;

export function isHlsPath(path: string): boolean {
  return FMP4_PATH.test(path) || TS_PATH.test(path);
}

/** How long the segments of a stream that went offline stay fetchable (its playlist is gone at once). */
const ENDED_RETAIN_MS = 30_000;

const HEADERS = { 'Cache-Control': 'no-cache', 'Access-Control-Allow-Origin': 'https://live.bilibili.com', Server: 'Tengine' };

function send(res: ServerResponse, type: string, body: Buffer | string): void {
  res.writeHead(200, { ...HEADERS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export async function handleHls(findRoom: (id: number) => SimRoom | undefined, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const fm = FMP4_PATH.exec(url.pathname);
  const tm = fm ? null : TS_PATH.exec(url.pathname);
  const m = fm ?? tm;
  if (!m) return sendText(res, 404, 'Not Found');
  const format: HlsFormat = fm ? 'fmp4' : 'ts';
  const room = findRoom(Number(m[1]));
  if (!room || !room.formats.includes(format)) return sendText(res, 404, 'Not Found');
  if (handleLiveHls(room, fm !== null, m[3]!, req, res, url)) return;
  // Like a real CDN, segments already cut stay fetchable a while after the stream ends: a client that is still
  // taking the last playlist's segments gets them; nothing new appears.
  const endedAt = !room.live && room.endedAt !== null && Date.now() - room.endedAt < ENDED_RETAIN_MS ? room.endedAt : null;
  if (!room.live && endedAt === null) return sendText(res, 404, 'Not Found');
  if (m[2] === '_av1' && !room.av1) return sendText(res, 404, 'Not Found');
  const tl = timelineOf(room, format, m[2] === '_av1' ? 'av1' : m[2] !== undefined && room.hevc ? 'hevc' : 'avc');
  const name = m[3]!;
  if (name.endsWith('.m3u8')) {
    if (!room.live) return sendText(res, 404, 'Not Found');
    room.counters.hlsPlaylistRequests++;
    pushLog(room.streamLog, { at: Date.now(), path: url.pathname, query: url.search, headers: req.headers });
    if (tl.playlist404 > 0) {
      tl.playlist404--;
      return sendText(res, 404, 'Not Found');
    }
    return send(res, 'application/vnd.apple.mpegurl', tl.playlist(url.searchParams.get('trid') ?? ''));
  }
  if (name.startsWith('h')) {
    const init = tl.initBytes(name);
    return init ? send(res, 'video/mp4', init) : sendText(res, 404, 'Not Found');
  }
  room.counters.hlsSegmentRequests++;
  const n = tl.indexOf(Number(/(\d+)\.(?:m4s|ts)$/.exec(name)![1]), endedAt ?? Date.now());
  if (n === null || tl.missing.has(n)) return sendText(res, 404, 'Not Found');
  const seg = tl.segment(n);
  const type = format === 'fmp4' ? 'video/iso.segment' : 'video/mp2t';
  const slow = tl.slow[0];
  if (slow) {
    // A slow CDN edge: half the segment at once, the rest after delayMs.
    if (--slow.remaining <= 0) tl.slow.shift();
    res.writeHead(200, { ...HEADERS, 'Content-Type': type, 'Content-Length': seg.bytes.length });
    const half = seg.bytes.length >> 1;
    res.write(seg.bytes.subarray(0, half));
    await new Promise((r) => setTimeout(r, slow.delayMs));
    if (clientGone(res)) return;
    tl.served(n);
    return void res.end(seg.bytes.subarray(half));
  }
  tl.served(n);
  if (tl.corrupt > 0) {
    // Damage in transit, as a bad CDN edge: the length is right, the playlist's CRC-32 is not.
    tl.corrupt--;
    const bad = Buffer.from(seg.bytes);
    bad[bad.length >> 1] ^= 0xff;
    return send(res, type, bad);
  }
  send(res, type, seg.bytes);
}
