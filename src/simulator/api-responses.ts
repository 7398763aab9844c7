// The `data` objects of the live API endpoints, in the real layout (a realistic superset of what clients read).
import { randomBytes } from 'node:crypto';
import { coverPath } from './cover.js';
import { issueToken } from './danmaku-guest-view.js';
import type { SimRoom } from './room.js';
import { opaqueStem } from './stream-names.js';
import { type Variant, variantQuery } from './origin-variants.js';

/** Where the simulator can be reached: the hosts it hands out for streams and danmaku. */
export interface SimAddress {
  port: number;
  /** Stream hosts in url_info order; an `.mcdn.` one is added after them (unreachable, never chosen by brec). */
  streamHosts: string[];
  danmakuHost: string;
  /** The raw-TCP danmaku listener (host_list `port`; 0 when none). */
  danmakuTcpPort: number;
}

const OFFLINE_LIVE_TIME = -62170012800;

export function roomInitData(room: SimRoom): Record<string, unknown> {
  return {
    room_id: room.roomId, short_id: room.shortId, uid: room.uid, need_p2p: 0, is_hidden: false, is_locked: false,
    is_portrait: false, live_status: room.liveStatus, hidden_till: 0, lock_till: 0, encrypted: false, pwd_verified: false,
    live_time: room.live ? room.liveStartTime : OFFLINE_LIVE_TIME, room_shield: 0, is_sp: 0, special_type: 0,
  };
}

export function roomInfoData(room: SimRoom, addr?: SimAddress): Record<string, unknown> {
  return {
    room_info: {
      uid: room.uid, room_id: room.roomId, short_id: room.shortId, title: room.title,
      // Served by the simulator itself (src/simulator/cover.ts), as stream hosts are.
      cover: addr ? `http://127.0.0.1:${addr.port}${coverPath(room.roomId)}` : `http://i0.hdslb.com${coverPath(room.roomId)}`, tags: 'simulated,liverec',
      background: '', description: '<p>A simulated room</p>', live_status: room.liveStatus, live_start_time: room.live ? room.liveStartTime : 0,
      live_screen_type: 0, lock_status: 0, lock_time: 0, hidden_status: 0, hidden_time: 0, area_id: 371, area_name: room.areaNameChild,
      parent_area_id: 9, parent_area_name: room.areaNameParent, keyframe: '', special_type: 0, up_session: room.live ? String(room.session) : '',
      pk_status: 0, is_studio: false, pendants: { frame: { name: '', value: '', desc: '' } }, on_voice_join: 0, online: room.popularity,
      room_type: { '3-21': 0 },
      // 2025 fields (rustsrec_getInfoByRoom_room22908869_2025-07.json)
      sub_session_key: room.live ? `${room.roomId}${room.session}sub_time:${room.liveStartTime}` : '', live_id: room.live ? room.roomId * 1000 + room.session : 0,
      live_id_str: room.live ? String(room.roomId * 1000 + room.session) : '0', official_room_id: 0, official_room_info: null, voice_background: '',
      live_model: 0, live_platform: room.live ? 'pc_link' : '', radio_background_type: 0,
    },
    anchor_info: {
      base_info: { uname: room.name, face: 'http://i0.hdslb.com/bfs/face/member/noface.jpg', gender: '保密', official_info: { role: 0, title: '', desc: '', is_nft: 0, nft_dmark: '' } },
      live_info: { level: 20, level_color: 10512625, score: 1000, upgrade_score: 0, current: [0, 0], next: [0, 0], rank: '>10000' },
      relation_info: { attention: 1000 },
      medal_info: null,
    },
    news_info: { uid: room.uid, ctime: '2024-01-01 00:00:00', content: '' },
    rankdb_info: { roomid: room.roomId, rank_desc: '小时总榜', color: '#FB7299', h5_url: '', web_url: '', timestamp: Math.floor(Date.now() / 1000) },
    area_rank_info: { areaRank: { index: 0, rank: '>1000' }, liveRank: { rank: '>10000' } },
    battle_rank_entry_info: null, tab_info: { list: [] }, activity_init_info: { eventList: [] }, voice_join_info: null,
    ad_banner_info: null, skin_info: null, web_banner_info: null, lol_info: null, pk_info: null, battle_info: null,
    silent_room_info: { type: '', level: 0, second: 0, expire_time: 0 }, switch_info: { close_guard: false, close_gift: false, close_online: false, close_danmaku: false },
    record_switch_info: { record_tab: false }, room_config_info: { dm_text: '发个弹幕呗~' }, gift_memory_info: { list: null },
    new_switch_info: {}, super_chat_info: { status: 1, jump_url: '', icon: '', ranked_mark: 0, message_list: [] },
    online_gold_rank_info_v2: { list: [] }, dm_emoticon_info: { is_open_emoticon: 1, is_shield_emoticon: 0 },
    dm_tag_info: { dm_tag: 0, platform: [], extra: '', dm_chronos_extra: '', dm_mode: [], dm_setting_switch: 0, material_conf: null },
    topic_info: { topic_id: 0, topic_name: '' }, game_info: { game_status: 0 }, watched_show: { switch: true, num: room.popularity, text_small: String(room.popularity), text_large: `${room.popularity}人看过`, icon: '', icon_location: 0, icon_web: '' },
    video_connection_info: null, player_throttle_info: { status: 1, normal_sleep_time: 1800, fullscreen_sleep_time: 3600, tab_sleep_time: 1800, prompt_time: 30 },
    guard_info: { count: 0, anchor_guard_achieve_level: 0 }, hot_rank_info: null,
  };
}

/** The path of a room's stream; `codec` tags hevc entries like the real `_prohevc` suffix, av1 ones `_av1`; `suffix` names a variant (`_bluray`). */
export function streamPath(room: SimRoom, ext: 'flv' | 'm3u8' | 'index.m3u8', codec: boolean | 'avc' | 'hevc' | 'av1' = false, suffix = ''): string {
  const c = codec === true ? 'hevc' : codec === false ? 'avc' : codec;
  const stem = room.opaqueNames ? opaqueStem(room.roomId, room.session, c)
    : `live_${room.roomId}_${room.session}${c === 'hevc' ? '_prohevc' : c === 'av1' ? '_av1' : suffix}`;
  return ext === 'index.m3u8' ? `/live-bvc/${room.session}/${stem}/index.m3u8?` : `/live-bvc/${room.session}/${stem}.${ext}?`;
}

function urlInfo(room: SimRoom, addr: SimAddress, qn: number, variant?: Variant): Record<string, unknown>[] {
  const named = variant && room.variants ? variantQuery(variant, room.variants, `live_${room.roomId}_${room.session}`) : '';
  const expires = Math.floor(Date.now() / 1000) + room.streamTtlSec;
  const hosts = room.streamHost ? [room.streamHost] : [...addr.streamHosts, `https://xy127x0x0x1xy.mcdn.bilivideo.cn:486`];
  return hosts.map((host, i) => ({
    host,
    extra: `expires=${expires}&len=0&oi=0&pt=web&qn=${qn}&trid=${randomBytes(8).toString('hex')}&sigparams=cdn,expires,len,oi,pt,qn,trid&cdn=cn-gotcha0${i + 1}&sign=${randomBytes(16).toString('hex')}&p2p_type=0${named}&src=puv3&sl=1&order=${i + 1}`,
    stream_ttl: room.streamTtlSec,
  }));
}

/** RFC 6381 strings of the simulator's clips (`video_codecs.base`; the service's look like avc1.64002a, hvc1.1.6.L120). */
export const SIM_VIDEO_CODECS = { avc: 'avc1.64001e', hevc: 'hvc1.1.6.L90', av1: 'av01.0.01M.08' } as const;

/** One codec entry in the 2025+ shape (PLAYURL_RELOAD capture: drm, drm_key_systems, video_codecs, audio_codecs, hdr_type). */
function codecEntry(room: SimRoom, addr: SimAddress, codec: 'avc' | 'hevc' | 'av1', format: 'flv' | 'ts' | 'fmp4', qn: number, variant?: Variant): Record<string, unknown> {
  const ext = format === 'flv' ? 'flv' : format === 'ts' ? 'm3u8' : 'index.m3u8';
  const served = variant?.currentQn ?? qn;
  return {
    codec_name: codec, current_qn: served, accept_qn: room.acceptQn, base_url: streamPath(room, ext, codec, variant?.suffix),
    url_info: urlInfo(room, addr, served, variant), hdr_qn: null, dolby_type: 0, attr_name: '', hdr_type: 0, drm: false, drm_key_systems: null,
    video_codecs: { base: SIM_VIDEO_CODECS[codec] }, audio_codecs: { base: 'mp4a.40.2' },
  };
}

/** The play-gateway master playlist URL of a room (`master_url` beside fMP4 entries), on the simulator's API host. */
export function masterUrl(room: SimRoom, addr: SimAddress): string {
  return `http://127.0.0.1:${addr.port}/xlive/play-gateway/master/url?cid=${room.roomId}&mid=0&pt=html5&p2p_type=-1&net=0&free_type=0&build=0&feature=2&qn=0`;
}

/** The qn a guest is served at most when the room's guestQnCap is on (2025-07 capture, `mid=0`: current_qn 250). */
export const GUEST_QN_CAP = 250;

/**
 * getRoomPlayInfo `data`; honours the protocol/format/codec filters; `current_qn` is the asked qn when offered, else
 * 10000, and at most 250 for a guest (no login cookie) of a room with guestQnCap.
 */
export function playInfoData(room: SimRoom, addr: SimAddress, q: URLSearchParams, loggedIn = false): Record<string, unknown> {
  const list = (name: string, all: string): Set<string> => new Set((q.get(name) ?? all).split(',').map((s) => s.trim()));
  const protocols = list('protocol', '0,1');
  const formats = list('format', '0,1,2');
  const codecs = list('codec', '0,1');
  const av1Offered = room.av1;
  const asked = Number(q.get('qn') ?? 150);
  const offeredQn = room.acceptQn.includes(asked) ? asked : room.acceptQn.includes(10000) ? 10000 : room.acceptQn[0] ?? 10000;
  const capped = room.guestQnCap && !loggedIn && !room.variants && offeredQn > GUEST_QN_CAP && room.acceptQn.includes(GUEST_QN_CAP);
  const qn = capped ? GUEST_QN_CAP : offeredQn;
  const variant = room.variants?.offer(asked, room.acceptQn);
  const codecList = (format: 'flv' | 'ts' | 'fmp4'): Record<string, unknown>[] => {
    const out = [];
    if (codecs.has('0') && !room.hevcOnly && !room.av1Only) out.push(codecEntry(room, addr, 'avc', format, qn, variant));
    if (codecs.has('1') && room.hevc && !room.av1Only) out.push(codecEntry(room, addr, 'hevc', format, qn, variant));
    // AV1 (codec 2) over FLV, fMP4 and TS. No capture shows AV1 over TS: the TS entry is offered so liverec handles it if served.
    if (codecs.has('2') && av1Offered) out.push(codecEntry(room, addr, 'av1', format, qn, variant));
    return out;
  };
  const offered = new Set(room.formats);
  if (!offered.has('flv')) formats.delete('0');
  if (!offered.has('ts')) formats.delete('1');
  if (!offered.has('fmp4') || room.hlsOnlyInMaster) formats.delete('2');
  if (room.hlsOnlyInMaster) formats.delete('1');
  const stream = [];
  if (protocols.has('0') && formats.has('0')) stream.push({ protocol_name: 'http_stream', format: [{ format_name: 'flv', codec: codecList('flv'), master_url: '' }] });
  if (protocols.has('1')) {
    const hls = [];
    if (formats.has('1')) hls.push({ format_name: 'ts', codec: codecList('ts'), master_url: '' });
    if (formats.has('2')) hls.push({ format_name: 'fmp4', codec: codecList('fmp4'), master_url: masterUrl(room, addr) });
    if (hls.length > 0) stream.push({ protocol_name: 'http_hls', format: hls });
  }
  const names: Record<number, string> = { 30000: '杜比', 20000: '4K', 15000: '2K', 10000: '原画', 400: '蓝光', 250: '超清', 150: '高清', 80: '流畅' };
  return {
    room_id: room.roomId, short_id: room.shortId, uid: room.uid, is_hidden: false, is_locked: false, is_portrait: false,
    live_status: room.liveStatus, hidden_till: 0, lock_till: 0, encrypted: false, pwd_verified: true,
    live_time: room.live ? room.liveStartTime : 0, room_shield: 0, all_special_types: [], official_type: 0, official_room_id: 0, risk_with_delay: 0,
    playurl_info: room.live
      ? {
          conf_json: '{"cdn_rate":10000,"report_interval_sec":150}',
          playurl: {
            cid: room.roomId, g_qn_desc: Object.entries(names).reverse().map(([k, v]) => ({ qn: Number(k), desc: v, hdr_desc: '', attr_desc: null, hdr_type: 0, media_base_desc: null })),
            stream, p2p_data: { p2p: false, p2p_type: 0, m_p2p: false, m_servers: null }, dolby_qn: null,
          },
        }
      : null,
  };
}

/** getDanmuInfo `data`: a fresh token (remembered by the room) and one host pointing back at the simulator. */
/** `loggedIn`: the call carried a logged-in SESSDATA; the token remembers it (a guest's connection sees masked senders). */
export function danmuInfoData(room: SimRoom, addr: SimAddress, loggedIn = false): Record<string, unknown> {
  const token = `sim-${room.roomId}-${randomBytes(12).toString('base64url')}`;
  issueToken(room, token, loggedIn);
  return {
    group: 'live', business_id: 0, refresh_row_factor: 0.125, refresh_rate: 100, max_delay: 5000, token,
    // port: the raw-TCP listener, ws_port: the simulator's own HTTP port (/sub); no TLS listener, so wss_port is 0
    // (the 2025-05 capture names 2243/2245/2244 for port/wss_port/ws_port).
    host_list: [room.danmakuServer
      ? { host: room.danmakuServer.host, port: 0, wss_port: 0, ws_port: room.danmakuServer.wsPort }
      : { host: addr.danmakuHost, port: addr.danmakuTcpPort, wss_port: 0, ws_port: addr.port }],
  };
}
