// Replay of real captures: a room answers an endpoint with a captured body, its room ids and stream URLs made the simulator's.
import type { SimAddress } from './api-responses.js';
import { streamPath } from './api-responses.js';
import type { SimRoom } from './room.js';
import { issueToken } from './danmaku-guest-view.js';

export const CAPTURED_ENDPOINTS = ['getInfoByRoom', 'getRoomPlayInfo', 'roomInit', 'getDanmuInfo', 'masterPlaylist'] as const;
export type CapturedEndpoint = (typeof CAPTURED_ENDPOINTS)[number];

const ROOM_ID_KEYS = new Set(['room_id', 'roomid', 'real_room_id']);

export class CapturedError extends Error {}

/** Checks and stores a capture: JSON endpoints take an envelope object (or its JSON text), masterPlaylist an #EXTM3U text. */
export function armCaptured(room: SimRoom, endpoint: CapturedEndpoint, body: unknown): void {
  if (endpoint === 'masterPlaylist') {
    if (typeof body !== 'string' || !body.trimStart().startsWith('#EXTM3U')) throw new CapturedError('masterPlaylist: body must be the playlist text (starting with #EXTM3U)');
    room.captured.set(endpoint, body);
    return;
  }
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      throw new CapturedError(`${endpoint}: body is text but not JSON`);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof (value as { code?: unknown }).code !== 'number') {
    throw new CapturedError(`${endpoint}: body must be the captured answer, a JSON object with a numeric code`);
  }
  room.captured.set(endpoint, value);
}

/** The answer for `endpoint` built from the room's capture, or undefined when none is armed. */
/** `loggedIn`: the call carried a logged-in SESSDATA (a replayed danmaku token remembers it). */
export function capturedAnswer(room: SimRoom, endpoint: CapturedEndpoint, addr: SimAddress, loggedIn = false): unknown {
  const captured = room.captured.get(endpoint);
  if (captured === undefined) return undefined;
  const hosts = new HostMap(addr);
  if (endpoint === 'masterPlaylist') return rewritePlaylist(room, captured as string, hosts);
  const body = structuredClone(captured) as Record<string, unknown>;
  replaceRoomIds(room, body);
  const data = body.data as Record<string, unknown> | null | undefined;
  if (data && endpoint === 'getRoomPlayInfo') rewritePlayInfo(room, data, hosts);
  if (data && endpoint === 'getDanmuInfo') rewriteDanmuInfo(room, data, addr, loggedIn);
  return body;
}

/** Each distinct captured host becomes one of the simulator's stream hosts, in turn. */
class HostMap {
  private readonly map = new Map<string, string>();
  constructor(private readonly addr: SimAddress) {}

  get(host: string): string {
    let to = this.map.get(host);
    if (to === undefined) this.map.set(host, (to = this.addr.streamHosts[this.map.size % this.addr.streamHosts.length]!));
    return to;
  }
}

function replaceRoomIds(room: SimRoom, node: unknown): void {
  if (Array.isArray(node)) return node.forEach((n) => replaceRoomIds(room, n));
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) {
    if (ROOM_ID_KEYS.has(k) && (typeof v === 'number' || typeof v === 'string')) o[k] = typeof v === 'string' ? String(room.roomId) : room.roomId;
    else if (k === 'short_id' && typeof v === 'number') o[k] = room.shortId;
    else if (k === 'playurl' && v && typeof v === 'object' && 'cid' in v) (v as Record<string, unknown>).cid = room.roomId;
    if (typeof o[k] === 'object') replaceRoomIds(room, o[k]);
  }
}

/** The simulator's path of the same stream: protocol/format from the entry, `_prohevc` for HEVC. */
function simPath(room: SimRoom, format: string, codec: string): string {
  const ext = format === 'flv' ? 'flv' : format === 'ts' ? 'm3u8' : 'index.m3u8';
  return streamPath(room, ext, codec === 'hevc').replace(/\?$/, '');
}

function rewritePlayInfo(room: SimRoom, data: Record<string, unknown>, hosts: HostMap): void {
  type Codec = { codec_name?: unknown; base_url?: unknown; url_info?: { host?: unknown }[] };
  const playurl = (data.playurl_info as { playurl?: { stream?: { format?: { format_name?: unknown; codec?: Codec[] }[] }[] } } | null)?.playurl;
  for (const s of playurl?.stream ?? []) {
    for (const f of s.format ?? []) {
      for (const c of f.codec ?? []) {
        if (typeof c.base_url === 'string') {
          const q = c.base_url.indexOf('?');
          c.base_url = simPath(room, String(f.format_name), String(c.codec_name)) + (q < 0 ? '?' : c.base_url.slice(q));
        }
        for (const u of c.url_info ?? []) if (typeof u.host === 'string') u.host = hosts.get(u.host);
      }
    }
  }
}

function rewriteDanmuInfo(room: SimRoom, data: Record<string, unknown>, addr: SimAddress, loggedIn: boolean): void {
  const list = Array.isArray(data.host_list) ? data.host_list : [];
  data.host_list = list.map(() => ({ host: addr.danmakuHost, port: 0, wss_port: 0, ws_port: addr.port }));
  // The captured token must open the simulator's danmaku socket like one it handed out.
  if (typeof data.token === 'string') issueToken(room, data.token, loggedIn);
}

const CODEC_OF: [RegExp, string][] = [[/(^|[",])\s*(hvc1|hev1)/, 'hevc'], [/(^|[",])\s*av01/, 'av1']];

/** Master playlist: every variant URL's host and path become the simulator's stream (query kept); pathway hosts follow. */
function rewritePlaylist(room: SimRoom, text: string, hosts: HostMap): string {
  let codec = 'avc';
  const lines = text.split(/\r?\n/).map((line) => {
    if (line.startsWith('#EXT-X-STREAM-INF')) {
      const codecs = /CODECS="([^"]*)"/.exec(line)?.[1] ?? '';
      codec = CODEC_OF.find(([re]) => re.test(codecs))?.[1] ?? 'avc';
      return line;
    }
    if (line.startsWith('#') || line.trim() === '') return line;
    let url: URL;
    try {
      url = new URL(line.trim());
    } catch {
      return line;
    }
    const format = url.pathname.endsWith('/index.m3u8') ? 'fmp4' : 'ts';
    return hosts.get(url.origin) + simPath(room, format, codec) + url.search;
  });
  return lines.map((l) => (l.startsWith('#') ? l.replace(/https?:\/\/[A-Za-z0-9.\-]+(:\d+)?/g, (origin) => hosts.get(origin)) : l)).join('\n');
}
