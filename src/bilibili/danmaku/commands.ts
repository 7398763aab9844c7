// Typed danmaku commands (op 5 JSON): the ones a recorder acts on or writes; unknown commands are ignored.
import { MAX_FIELD_CHARS } from '../field-limits.js';
import { decodeInteractWordV2, decodeSendGiftV2 } from './v2-protobuf.js';

type Raw = Record<string, unknown>;

export type DanmakuEvent =
  | { type: 'LIVE'; roomId: number; /** Unix s; only in the first LIVE after a stream starts. */ liveTime?: number; raw: Raw }
  | { type: 'PREPARING'; roomId: number; /** True when the room switches to its replay loop. */ round: boolean; raw: Raw }
  | { type: 'ROOM_CHANGE'; title: string; areaName: string; parentAreaName: string; raw: Raw }
  | { type: 'CUT_OFF'; message: string; raw: Raw }
  /** The service pushed a fresh playurl (PLAYURL_RELOAD): the stream should be fetched again now. */
  | { type: 'PLAYURL_RELOAD'; raw: Raw }
  /** The service tells a connection that it is a guest's (senders masked): bac_cmd_LOG_IN_NOTICE.json. */
  | { type: 'LOG_IN_NOTICE'; message: string; raw: Raw }
  | { type: 'INTERACT_WORD'; uid: number; uname: string; /** 1 entry, 2 follow, 3 share. */ msgType: number; roomId: number; raw: Raw }
  /** master_qn_strategy_chg: the offered qualities changed (an origin may be back). PLAYURL_RELOAD is its own event. */
  | { type: 'PLAYURL_CHANGE'; cmd: string; raw: Raw }
  | {
      type: 'DANMU_MSG'; text: string; uid: number; uname: string; isAdmin: boolean; isVip: boolean;
      /** 0 none, 1 总督, 2 提督, 3 舰长. */ guardLevel: number;
      mode: number; fontSize: number; color: number; /** Unix ms. */ sendTime: number; raw: Raw;
    }
  | {
      type: 'SEND_GIFT'; giftName: string; num: number; uid: number; uname: string; coinType: string; price: number;
      /** The gift's transaction id (the same in SEND_GIFT and SEND_GIFT_V2 of one gift; '' when absent). */ tid: string;
      giftId: number; /** Unix s. */ timestamp: number;
      /** A blind box's own name and price (V1 `data.blind_gift.original_gift_name`/`original_gift_price`), when it is one. */
      blindName?: string; blindPrice?: number; raw: Raw;
    }
  | { type: 'SUPER_CHAT_MESSAGE'; message: string; uid: number; uname: string; /** CNY */ price: number; /** s */ duration: number; raw: Raw }
  | { type: 'GUARD_BUY'; uid: number; username: string; guardLevel: number; num: number; price: number; giftName: string; raw: Raw };

export type DanmakuEventType = DanmakuEvent['type'];

/** Thrown internally for a known command whose payload has the wrong shape; counted by the client. */
export class MalformedCommand extends Error {}

const isObj = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);

function n(v: unknown, fallback = 0): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return fallback;
}

export { MAX_FIELD_CHARS };

const cap = (v: string): string => (v.length > MAX_FIELD_CHARS ? v.slice(0, MAX_FIELD_CHARS) : v);
const s = (v: unknown, fallback = ''): string => cap(typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback);

function data(raw: Raw): Raw {
  if (!isObj(raw.data)) throw new MalformedCommand(`${String(raw.cmd)} without a data object`);
  return raw.data;
}

/** The typed event for a command, null when the command is one recorders ignore; MalformedCommand on bad shapes. */
export function parseCommand(raw: unknown): DanmakuEvent | null {
  if (!isObj(raw) || typeof raw.cmd !== 'string') throw new MalformedCommand('command without a cmd string');
  const cmd = raw.cmd.startsWith('DANMU_MSG') ? 'DANMU_MSG' : raw.cmd;
  switch (cmd) {
    case 'LIVE': {
      const ev: DanmakuEvent = { type: 'LIVE', roomId: n(raw.roomid), raw };
      if (raw.live_time !== undefined) ev.liveTime = n(raw.live_time);
      return ev;
    }
    case 'PREPARING':
      return { type: 'PREPARING', roomId: n(raw.roomid), round: n(raw.round) === 1, raw };
    case 'ROOM_CHANGE': {
      const d = data(raw);
      return { type: 'ROOM_CHANGE', title: s(d.title), areaName: s(d.area_name), parentAreaName: s(d.parent_area_name), raw };
    }
    case 'CUT_OFF':
      return { type: 'CUT_OFF', message: s(raw.msg), raw };
    case 'CUT_OFF_V2':
      return { type: 'CUT_OFF', message: cutOffV2Message(data(raw)), raw };
    case 'SEND_GIFT_V2':
      return parseCommandEvents(raw)[0] ?? null;
    case 'INTERACT_WORD_V2': {
      const v = decodePb(raw, decodeInteractWordV2);
      return { type: 'INTERACT_WORD', uid: v.uid, uname: v.uname, msgType: v.msgType, roomId: v.roomId, raw };
    }
    case 'INTERACT_WORD': {
      const d = data(raw);
      return { type: 'INTERACT_WORD', uid: n(d.uid), uname: s(d.uname), msgType: n(d.msg_type), roomId: n(d.roomid), raw };
    }
    // PLAYURL_RELOAD_MASTER carries the same room_id/playurl/reload_option (danmubox docs/protocol.md §10.7): handled alike.
    case 'LOG_IN_NOTICE':
      return { type: 'LOG_IN_NOTICE', message: s(isObj(raw.data) ? raw.data.notice_msg : ''), raw };
    case 'PLAYURL_RELOAD':
    case 'PLAYURL_RELOAD_MASTER':
      return { type: 'PLAYURL_RELOAD', raw };
    case 'master_qn_strategy_chg':
      return { type: 'PLAYURL_CHANGE', cmd, raw };
    case 'DANMU_MSG':
      return danmuMsg(raw);
    case 'SEND_GIFT': {
      const d = data(raw);
      const blind = isObj(d.blind_gift) ? d.blind_gift : null;
      return {
        type: 'SEND_GIFT', giftName: s(d.giftName), num: n(d.num, 1), uid: n(d.uid), uname: s(d.uname), coinType: s(d.coin_type), price: n(d.price),
        tid: s(d.tid), giftId: n(d.giftId), timestamp: n(d.timestamp), raw,
        ...(blind && s(blind.original_gift_name) !== '' ? { blindName: s(blind.original_gift_name), blindPrice: n(blind.original_gift_price) } : {}),
      };
    }
    case 'SUPER_CHAT_MESSAGE': {
      const d = data(raw);
      const user = isObj(d.user_info) ? d.user_info : {};
      return { type: 'SUPER_CHAT_MESSAGE', message: s(d.message), uid: n(d.uid), uname: s(user.uname), price: n(d.price), duration: n(d.time), raw };
    }
    case 'USER_TOAST_MSG_V2': {
      // No capture; the field layout of public client models (sender_uinfo, guard_info, pay_info). A guard purchase
      // the room also announces as GUARD_BUY is dropped as a repeat (gift-dedupe.ts): whichever comes first is kept.
      const d = data(raw);
      const sender = isObj(d.sender_uinfo) ? d.sender_uinfo : {};
      const base = isObj(sender.base) ? sender.base : {};
      const guard = isObj(d.guard_info) ? d.guard_info : {};
      const pay = isObj(d.pay_info) ? d.pay_info : {};
      if (n(guard.guard_level) < 1 || n(guard.guard_level) > 3) return null;
      return { type: 'GUARD_BUY', uid: n(sender.uid), username: s(base.name), guardLevel: n(guard.guard_level), num: n(pay.num, 1), price: n(pay.price), giftName: s(guard.role_name), raw };
    }
    case 'GUARD_BUY': {
      const d = data(raw);
      return { type: 'GUARD_BUY', uid: n(d.uid), username: s(d.username), guardLevel: n(d.guard_level), num: n(d.num, 1), price: n(d.price), giftName: s(d.gift_name), raw };
    }
    default:
      return null;
  }
}

/**
 * Every event of one command: SEND_GIFT_V2 carries a list of gifts (`data.pb` field 10), one SEND_GIFT event each;
 * other commands give parseCommand's event or none. MalformedCommand on bad shapes (also an unreadable `data.pb`).
 */
export function parseCommandEvents(raw: unknown): DanmakuEvent[] {
  if (isObj(raw) && raw.cmd === 'SEND_GIFT_V2') {
    const v = decodePb(raw, decodeSendGiftV2);
    // switch (field 11) false: the web client and brec show nothing, so no gift is written.
    if (!v.switch) return [];
    return v.gifts.map((g) => ({
      type: 'SEND_GIFT', giftName: g.giftName, num: g.num, uid: v.uid, uname: v.uname, coinType: g.coinType, price: g.price,
      tid: g.tid, giftId: g.giftId, timestamp: g.timestamp,
      // The decoded fields stand in for `data` (what RecordDanmakuRaw writes), the protobuf itself is kept beside them.
      raw: { ...raw, data: { pb: (raw.data as Raw).pb, uid: v.uid, uname: v.uname, face: v.face, ...g } },
    }));
  }
  const ev = parseCommand(raw);
  return ev ? [ev] : [];
}

function decodePb<T>(raw: Raw, decode: (pb: string) => T): T {
  const pb = data(raw).pb;
  if (typeof pb !== 'string') throw new MalformedCommand(`${String(raw.cmd)} without data.pb`);
  try {
    return decode(pb);
  } catch (err) {
    throw new MalformedCommand(`${String(raw.cmd)}: data.pb does not decode: ${(err as Error).message}`);
  }
}

/** CUT_OFF_V2's reason: the title and each labelled line of `cut_off_data` (e.g. 违规原因：…). */
function cutOffV2Message(d: Raw): string {
  const c = isObj(d.cut_off_data) ? d.cut_off_data : {};
  const lines = Array.isArray(c.cut_off_message_list) ? c.cut_off_message_list.filter(isObj).map((m) => (s(m.label) ? `${s(m.label)}：${s(m.content)}` : s(m.content))) : [];
  return [s(c.cut_off_title), ...lines].filter((x) => x !== '').join('; ');
}

function danmuMsg(raw: Raw): DanmakuEvent {
  const info = raw.info;
  if (!Array.isArray(info) || !Array.isArray(info[0]) || typeof info[1] !== 'string' || !Array.isArray(info[2])) {
    throw new MalformedCommand('DANMU_MSG without info[0] array, info[1] text and info[2] user');
  }
  const meta = info[0] as unknown[];
  const user = info[2] as unknown[];
  return {
    type: 'DANMU_MSG',
    text: cap(info[1]),
    uid: n(user[0]),
    uname: s(user[1]),
    isAdmin: n(user[2]) === 1,
    isVip: n(user[3]) === 1,
    guardLevel: n(info[7]),
    mode: n(meta[1], 1),
    fontSize: n(meta[2], 25),
    color: n(meta[3], 0xffffff),
    sendTime: n(meta[4]),
    raw,
  };
}
