// Command payloads the simulator pushes, shaped like the real service's (LIVE, PREPARING, DANMU_MSG, gifts...).
import { randomBytes } from 'node:crypto';
import { encodeInteractWordV2, encodeSendGiftV2 } from '../bilibili/danmaku/v2-protobuf.js';
import type { SimRoom } from './room.js';

const nowS = (): number => Math.floor(Date.now() / 1000);

/** LIVE as sent right after a stream starts: the first carries live_time, the second does not. */
export function liveCommands(room: SimRoom): object[] {
  const base = { cmd: 'LIVE', live_key: randomBytes(8).readBigUInt64BE().toString(), voice_background: '', sub_session_key: `${room.session}sub_time:${nowS()}`, live_platform: 'pc', live_model: 0, roomid: room.roomId };
  return [{ ...base, live_time: room.liveStartTime }, base];
}

/** PREPARING carries the room id as a string (the service changed it); round:1 when a replay loop starts. */
export function preparingCommand(room: SimRoom, round: boolean): object {
  return round ? { cmd: 'PREPARING', round: 1, roomid: String(room.roomId) } : { cmd: 'PREPARING', roomid: String(room.roomId) };
}

export function roomChangeCommand(room: SimRoom): object {
  return {
    cmd: 'ROOM_CHANGE',
    data: { title: room.title, area_id: 371, parent_area_id: 9, area_name: room.areaNameChild, parent_area_name: room.areaNameParent, live_key: '0', sub_session_key: '' },
  };
}

export function cutOffCommand(room: SimRoom, msg: string): object {
  return { cmd: 'CUT_OFF', msg, roomid: room.roomId };
}

export interface DanmuInput {
  text: string;
  uid?: number;
  uname?: string;
  /** Appended to the cmd, e.g. ":4:0:2:2:2:0" as the service sometimes does. */
  suffix?: string;
  guardLevel?: number;
  admin?: boolean;
  color?: number;
}

export function danmuCommand(d: DanmuInput): object {
  const uid = d.uid ?? 0;
  const uname = d.uname ?? (uid === 0 ? '游客***' : `user${uid}`);
  const meta = [0, 1, 25, d.color ?? 0xffffff, Date.now(), Math.floor(Math.random() * 2 ** 31), 0, randomBytes(4).toString('hex'), 0, 0, 0, '', 0, '{}', '{}', { mode: 0, show_player_type: 0, extra: '{}' }];
  return {
    cmd: `DANMU_MSG${d.suffix ?? ''}`,
    info: [meta, d.text, [uid, uname, d.admin ? 1 : 0, 0, 0, 10000, 1, ''], [], [0, 0, 9868950, '>50000', 0], ['', ''], 0, d.guardLevel ?? 0, null, { ts: nowS(), ct: randomBytes(4).toString('hex') }, 0, 0, null, null, 0, 105],
    dm_v2: '',
  };
}

export interface GiftInput {
  giftName?: string; num?: number; uid?: number; uname?: string; price?: number; coinType?: 'gold' | 'silver';
  /** The gift's transaction id, the same in its SEND_GIFT and SEND_GIFT_V2 (default: a fresh one). */
  tid?: string;
}

let tidSeq = 0;
const freshTid = (): string => `${Date.now()}${String(++tidSeq).padStart(6, '0')}`;

export function giftCommand(g: GiftInput): object {
  const num = g.num ?? 1;
  const price = g.price ?? 100;
  const tid = g.tid ?? freshTid();
  return {
    cmd: 'SEND_GIFT',
    data: {
      action: '投喂', giftName: g.giftName ?? '辣条', giftId: 1, num, uid: g.uid ?? 1, uname: g.uname ?? 'gifter', coin_type: g.coinType ?? 'gold', price,
      total_coin: price * num, timestamp: nowS(), tid, rnd: tid,
    },
  };
}

/** SEND_GIFT_V2 (2026): the gift as base64 protobuf in `data.pb`, as rooms send it beside or instead of SEND_GIFT. */
export function giftV2Command(g: GiftInput, room: SimRoom): object {
  const num = g.num ?? 1;
  const price = g.price ?? 100;
  const pb = encodeSendGiftV2({
    uid: g.uid ?? 1, uname: g.uname ?? 'gifter', face: '', gifts: [{
      giftId: 1, giftName: g.giftName ?? '辣条', num, price, totalCoin: price * num, coinType: g.coinType ?? 'gold', tid: g.tid ?? freshTid(),
      timestamp: nowS(), batchComboId: '', action: '投喂', receiverUid: room.uid, receiverName: room.name,
    }],
  });
  return { cmd: 'SEND_GIFT_V2', data: { pb } };
}

/** INTERACT_WORD_V2 (2026): an entry (msgType 1) or follow (2) as base64 protobuf in `data.pb`. */
export function interactWordV2Command(room: SimRoom, uid: number, uname: string, msgType = 1): object {
  return { cmd: 'INTERACT_WORD_V2', data: { pb: encodeInteractWordV2({ uid, uname, msgType, roomId: room.roomId, timestamp: nowS() }) } };
}

export interface SuperChatInput { message: string; price?: number; uid?: number; uname?: string; time?: number }

let msgSeq = 0;
/** The 2025 envelope's message id (`<id>:1000:1000` in the capture). */
const freshMsgId = (): string => `${Date.now()}${String(++msgSeq % 100000).padStart(5, '0')}:1000:1000`;

/**
 * Every top-level field of starbot_cmd_SUPER_CHAT_MESSAGE_SuperChat_1_2025.json (`send_time` ms, `msg_id`, `p_is_ack`,
 * `p_msg_type`, `is_report`; no `roomid` there, unlike the older capture) and every `data` field of it.
 */
export function superChatCommand(room: SimRoom, s: SuperChatInput): object {
  const now = Date.now();
  const start = Math.floor(now / 1000);
  const uid = s.uid ?? 1;
  const uname = s.uname ?? 'sc-user';
  const face = 'https://i0.hdslb.com/bfs/face/member/noface.jpg';
  return {
    cmd: 'SUPER_CHAT_MESSAGE',
    data: {
      background_bottom_color: '#427D9E', background_color: '#DBFFFD', background_color_end: '#29718B', background_color_start: '#4EA4C5',
      background_icon: '', background_image: '', background_price_color: '#7DA4BD', color_point: 0.7, dmscore: 84, end_time: start + (s.time ?? 60),
      gift: { gift_id: 12000, gift_name: '醒目留言', num: 1 }, group_medal: { is_lighted: 0, medal_id: 0, name: '' },
      id: Math.floor(Math.random() * 1e7), is_mystery: false, is_ranked: 0, is_send_audit: 1,
      medal_info: { anchor_roomid: room.roomId, anchor_uname: room.name, guard_level: 0, icon_id: 0, is_lighted: 0, medal_color: '', medal_color_border: 0, medal_color_end: 0, medal_color_start: 0, medal_level: 0, medal_name: '', special: '', target_id: room.uid },
      message: s.message, message_font_color: '#A3F6FF', message_trans: '', price: s.price ?? 30, rate: 1000, start_time: start, time: s.time ?? 60,
      token: randomBytes(4).toString('hex').toUpperCase(), trans_mark: 0, ts: start, uid,
      uinfo: { base: { face, is_mystery: false, name: uname, name_color: 0, name_color_str: '#666666', official_info: { desc: '', role: 0, title: '', type: -1 }, origin_info: { face, name: uname } }, guard: { expired_str: '', level: 0 }, title: { old_title_css_id: '', title_css_id: '' }, uid },
      user_info: { face, face_frame: '', guard_level: 0, is_main_vip: 0, is_svip: 0, is_vip: 0, level_color: '#969696', manager: 0, name_color: '#666666', title: '', uname, user_level: 1 },
    },
    is_report: true, msg_id: freshMsgId(), p_is_ack: true, p_msg_type: 1, send_time: now,
  };
}

export interface GuardInput { uid?: number; username?: string; guardLevel?: number; num?: number; price?: number }

export function guardCommand(g: GuardInput): object {
  const level = g.guardLevel ?? 3;
  const names: Record<number, string> = { 1: '总督', 2: '提督', 3: '舰长' };
  return {
    cmd: 'GUARD_BUY',
    data: { uid: g.uid ?? 1, username: g.username ?? 'captain', guard_level: level, num: g.num ?? 1, price: g.price ?? 198_000, gift_id: 10000 + level, gift_name: names[level] ?? '舰长', start_time: nowS(), end_time: nowS() },
  };
}
