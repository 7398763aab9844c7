// Typed danmaku commands (op 5 JSON): the ones a recorder acts on or writes; unknown commands are ignored.

type Raw = Record<string, unknown>;

export type DanmakuEvent =
  | { type: 'LIVE'; roomId: number; /** Unix s; only in the first LIVE after a stream starts. */ liveTime?: number; raw: Raw }
  | { type: 'PREPARING'; roomId: number; /** True when the room switches to its replay loop. */ round: boolean; raw: Raw }
  | { type: 'ROOM_CHANGE'; title: string; areaName: string; parentAreaName: string; raw: Raw }
  | { type: 'CUT_OFF'; message: string; raw: Raw }
  | {
      type: 'DANMU_MSG'; text: string; uid: number; uname: string; isAdmin: boolean; isVip: boolean;
      /** 0 none, 1 总督, 2 提督, 3 舰长. */ guardLevel: number;
      mode: number; fontSize: number; color: number; /** Unix ms. */ sendTime: number; raw: Raw;
    }
  | { type: 'SEND_GIFT'; giftName: string; num: number; uid: number; uname: string; coinType: string; price: number; raw: Raw }
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

/** Text fields (titles, names, messages) are cut to this many characters at parse time: the service's own limits are far lower. */
export const MAX_FIELD_CHARS = 1024;

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
    case 'DANMU_MSG':
      return danmuMsg(raw);
    case 'SEND_GIFT': {
      const d = data(raw);
      return { type: 'SEND_GIFT', giftName: s(d.giftName), num: n(d.num, 1), uid: n(d.uid), uname: s(d.uname), coinType: s(d.coin_type), price: n(d.price), raw };
    }
    case 'SUPER_CHAT_MESSAGE': {
      const d = data(raw);
      const user = isObj(d.user_info) ? d.user_info : {};
      return { type: 'SUPER_CHAT_MESSAGE', message: s(d.message), uid: n(d.uid), uname: s(user.uname), price: n(d.price), duration: n(d.time), raw };
    }
    case 'GUARD_BUY': {
      const d = data(raw);
      return { type: 'GUARD_BUY', uid: n(d.uid), username: s(d.username), guardLevel: n(d.guard_level), num: n(d.num, 1), price: n(d.price), giftName: s(d.gift_name), raw };
    }
    default:
      return null;
  }
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
