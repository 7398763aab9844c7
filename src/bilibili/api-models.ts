// Typed views of the live API answers, read field by field from the `data` object of each endpoint.
import { arr, type Json, num, obj, optBool, optNum, optStr, str } from './json-read.js';

/** getInfoByRoom: everything the recorder reads, plus the raw `data` for file-name templates. */
export interface RoomInfo {
  roomId: number;
  shortId: number;
  uid: number;
  /** 0 offline, 1 live, 2 round (replay loop); only 1 counts as live. */
  liveStatus: number;
  title: string;
  areaId: number;
  areaName: string;
  parentAreaId: number;
  parentAreaName: string;
  /** Unix seconds, 0 when offline. */
  liveStartTime: number;
  cover: string;
  anchorName: string;
  raw: Record<string, Json>;
}

export function readRoomInfo(data: Json): RoomInfo {
  const d = obj(data, 'data');
  const r = obj(d.room_info, 'data.room_info');
  const base = obj(obj(d.anchor_info, 'data.anchor_info').base_info, 'data.anchor_info.base_info');
  const p = 'data.room_info.';
  return {
    roomId: num(r.room_id, p + 'room_id'),
    shortId: optNum(r.short_id, p + 'short_id', 0),
    uid: num(r.uid, p + 'uid'),
    liveStatus: num(r.live_status, p + 'live_status'),
    title: str(r.title, p + 'title'),
    areaId: optNum(r.area_id, p + 'area_id', 0),
    areaName: optStr(r.area_name, p + 'area_name', ''),
    parentAreaId: optNum(r.parent_area_id, p + 'parent_area_id', 0),
    parentAreaName: optStr(r.parent_area_name, p + 'parent_area_name', ''),
    liveStartTime: optNum(r.live_start_time, p + 'live_start_time', 0),
    cover: optStr(r.cover, p + 'cover', ''),
    anchorName: str(base.uname, 'data.anchor_info.base_info.uname'),
    raw: d,
  };
}

/** room_init: short id → real id, plus the flags. */
export interface RoomInit {
  roomId: number;
  shortId: number;
  uid: number;
  liveStatus: number;
  isHidden: boolean;
  isLocked: boolean;
  encrypted: boolean;
  /** Unix seconds; a large negative sentinel when offline. */
  liveTime: number;
}

export function readRoomInit(data: Json): RoomInit {
  const d = obj(data, 'data');
  return {
    roomId: num(d.room_id, 'data.room_id'),
    shortId: optNum(d.short_id, 'data.short_id', 0),
    uid: num(d.uid, 'data.uid'),
    liveStatus: num(d.live_status, 'data.live_status'),
    isHidden: optBool(d.is_hidden, 'data.is_hidden', false),
    isLocked: optBool(d.is_locked, 'data.is_locked', false),
    encrypted: optBool(d.encrypted, 'data.encrypted', false),
    liveTime: optNum(d.live_time, 'data.live_time', 0),
  };
}

export interface UrlInfo {
  host: string;
  extra: string;
  streamTtl: number;
}

export interface CodecEntry {
  codecName: string;
  currentQn: number;
  acceptQn: number[];
  baseUrl: string;
  urlInfo: UrlInfo[];
  /** A DRM-protected stream (2025+; false when absent): never recorded. */
  drm: boolean;
  /** The DRM key systems of a protected stream (null when none). */
  drmKeySystems: string[] | null;
  /** RFC 6381 codec string of the video (`video_codecs.base`, e.g. avc1.64002a, hvc1.1.6.L120); '' when absent. */
  videoCodecs: string;
  /** 0 SDR; other values name an HDR type (absent before 2025: 0). */
  hdrType: number;
}

export interface FormatEntry {
  formatName: string;
  codecs: CodecEntry[];
  /** The play-gateway master playlist URL offered beside the fMP4 entries ('' when none). */
  masterUrl: string;
}

export interface StreamEntry {
  protocolName: string;
  formats: FormatEntry[];
}

/** getRoomPlayInfo v2: `streams` is null when `playurl_info` is null (room not streaming). */
export interface PlayInfo {
  roomId: number;
  /** The streamer's uid (0 when absent): the master playlist's `mid` for a guest asking the original. */
  uid: number;
  liveStatus: number;
  /** Unix seconds of the stream's start (`live_time`); 0 or less when offline or absent. */
  liveTime: number;
  encrypted: boolean;
  pwdVerified: boolean;
  /** `all_special_types` (203: a paid/DRM room); [] when absent. */
  specialTypes: number[];
  streams: StreamEntry[] | null;
}

export function readPlayInfo(data: Json): PlayInfo {
  const d = obj(data, 'data');
  const info = {
    roomId: num(d.room_id, 'data.room_id'),
    uid: optNum(d.uid, 'data.uid', 0),
    liveStatus: num(d.live_status, 'data.live_status'),
    liveTime: optNum(d.live_time, 'data.live_time', 0),
    encrypted: optBool(d.encrypted, 'data.encrypted', false),
    pwdVerified: optBool(d.pwd_verified, 'data.pwd_verified', true),
    specialTypes: Array.isArray(d.all_special_types) ? d.all_special_types.map((t, i) => num(t, `data.all_special_types[${i}]`)) : [],
    streams: null as StreamEntry[] | null,
  };
  if (d.playurl_info === null || d.playurl_info === undefined) return info;
  const playurl = obj(obj(d.playurl_info, 'data.playurl_info').playurl, 'data.playurl_info.playurl');
  info.streams = arr(playurl.stream, 'playurl.stream').map((s, i) => {
    const sp = `playurl.stream[${i}]`;
    const so = obj(s, sp);
    return {
      protocolName: str(so.protocol_name, sp + '.protocol_name'),
      formats: arr(so.format, sp + '.format').map((f, j) => {
        const fp = `${sp}.format[${j}]`;
        const fo = obj(f, fp);
        return {
          formatName: str(fo.format_name, fp + '.format_name'),
          codecs: arr(fo.codec, fp + '.codec').map((c, k) => readCodec(c, `${fp}.codec[${k}]`)),
          masterUrl: optStr(fo.master_url, fp + '.master_url', ''),
        };
      }),
    };
  });
  return info;
}

function readCodec(c: Json, p: string): CodecEntry {
  const co = obj(c, p);
  return {
    codecName: str(co.codec_name, p + '.codec_name'),
    currentQn: num(co.current_qn, p + '.current_qn'),
    acceptQn: arr(co.accept_qn, p + '.accept_qn').map((q, i) => num(q, `${p}.accept_qn[${i}]`)),
    baseUrl: str(co.base_url, p + '.base_url'),
    urlInfo: arr(co.url_info, p + '.url_info').map((u, i) => {
      const up = `${p}.url_info[${i}]`;
      const uo = obj(u, up);
      return { host: str(uo.host, up + '.host'), extra: optStr(uo.extra, up + '.extra', ''), streamTtl: optNum(uo.stream_ttl, up + '.stream_ttl', 0) };
    }),
    drm: optBool(co.drm, p + '.drm', false),
    drmKeySystems: Array.isArray(co.drm_key_systems) ? co.drm_key_systems.map((k, i) => str(k, `${p}.drm_key_systems[${i}]`)) : null,
    videoCodecs: co.video_codecs && typeof co.video_codecs === 'object' && !Array.isArray(co.video_codecs)
      ? optStr((co.video_codecs as Record<string, Json>).base, p + '.video_codecs.base', '') : '',
    hdrType: optNum(co.hdr_type, p + '.hdr_type', 0),
  };
}

export interface DanmakuHost {
  host: string;
  /** Raw TCP port (unused by this client). */
  port: number;
  wsPort: number;
  wssPort: number;
}

export interface DanmuInfo {
  token: string;
  hosts: DanmakuHost[];
}

export function readDanmuInfo(data: Json): DanmuInfo {
  const d = obj(data, 'data');
  return {
    token: str(d.token, 'data.token'),
    hosts: arr(d.host_list, 'data.host_list').map((h, i) => {
      const p = `data.host_list[${i}]`;
      const o = obj(h, p);
      return {
        host: str(o.host, p + '.host'),
        port: optNum(o.port, p + '.port', 0),
        wsPort: optNum(o.ws_port, p + '.ws_port', 0),
        wssPort: optNum(o.wss_port, p + '.wss_port', 0),
      };
    }),
  };
}
