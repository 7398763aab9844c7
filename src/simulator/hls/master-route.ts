// The play-gateway master playlist (/xlive/play-gateway/master/url): every fMP4 variant on every host, with content steering.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { SIM_VIDEO_CODECS, type SimAddress, streamPath } from '../api-responses.js';
import { envelope, sendJson } from '../http-util.js';
import { pushLog, type SimRoom } from '../room.js';

export const MASTER_PATH = '/xlive/play-gateway/master/url';

const DISPLAY: Record<number, string> = { 30000: '杜比', 25000: '原画真彩', 20000: '4K', 15000: '2K', 10000: '原画', 400: '蓝光', 250: '超清', 150: '高清', 80: '流畅' };

/**
 * The layout of test/fixtures/bili-real/hls/qydysky_master_playlist_room_play-gateway_2025-01_avc_250_400_10000_content_steering.m3u8:
 * #EXT-X-CONTENT-STEERING with BILI-PATHWAY-PRIORITY (hosts, most wanted first), then per quality (lowest first) and
 * host one #EXT-X-STREAM-INF (BANDWIDTH, RESOLUTION, CODECS, BILI-ORDER, BILI-DISPLAY, BILI-QN, PATHWAY-ID) and its URI.
 */
export function masterPlaylist(room: SimRoom, addr: SimAddress): string {
  const hosts = room.streamHost ? [room.streamHost] : addr.streamHosts;
  const codecs = [...(room.hevcOnly || room.av1Only ? [] : ['avc' as const]), ...(room.hevc && !room.av1Only ? ['hevc' as const] : []), ...(room.av1 ? ['av1' as const] : [])];
  const expires = Math.floor(Date.now() / 1000) + room.streamTtlSec;
  const lines = [
    '#EXTM3U',
    `#EXT-X-CONTENT-STEERING:SERVER-URI="reserved",PATHWAY-ID="${hosts[0]}",BILI-PATHWAY-PRIORITY="${hosts.join(',')}",BILI-CTR-MODE=1,BILI-TTL=150`,
  ];
  const qns = [...room.acceptQn].sort((a, b) => a - b);
  let order = 0;
  for (const codec of codecs) {
    for (const qn of qns) {
      for (const host of hosts) {
        const kbps = Math.round(room.bitrateKbps * (qn >= 10000 ? 1 : qn >= 400 ? 0.8 : 0.6));
        lines.push(
          `#EXT-X-STREAM-INF:BANDWIDTH=${kbps * 1000},RESOLUTION=640x360,CODECS="${SIM_VIDEO_CODECS[codec]},mp4a.40.2",BILI-ORDER=${order},` +
            `BILI-DISPLAY="${DISPLAY[qn] ?? qn}",BILI-QN=${qn},PATHWAY-ID="${host}"`,
          `${host}${streamPath(room, 'index.m3u8', codec)}expires=${expires}&len=0&oi=0&pt=web&qn=${qn}&trid=${randomBytes(8).toString('hex')}` +
            `&sigparams=cdn,expires,len,oi,pt,qn,trid&cdn=cn-gotcha01&sign=${randomBytes(16).toString('hex')}&bvchls=1&source=puv3_master&codec=${codec === 'avc' ? 0 : codec === 'hevc' ? 1 : 2}`,
        );
      }
      order++;
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Answers the master playlist of room `cid`; a JSON error like the other live endpoints when the room is unknown or offline. */
export function handleMaster(findRoom: (id: number) => SimRoom | undefined, addr: SimAddress, req: IncomingMessage, res: ServerResponse, url: URL): void {
  const cid = url.searchParams.get('cid') ?? '';
  const room = /^\d+$/.test(cid) ? findRoom(Number(cid)) : undefined;
  if (!room) return sendJson(res, 200, envelope(19002000, '获取初始化数据失败', null, false));
  room.counters.apiHits.total++;
  room.counters.apiHits.masterPlaylist++;
  pushLog(room.apiLog, { at: Date.now(), path: url.pathname, query: url.search, headers: req.headers });
  if (!room.live || !room.formats.includes('fmp4')) return sendJson(res, 200, envelope(19002000, '房间未开播', null, false));
  const body = masterPlaylist(room, addr);
  res.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-cache' });
  res.end(body);
}
