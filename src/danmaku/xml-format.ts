// brec's danmaku XML layout: the prologue (declaration, stylesheet PI, fixed elements, record info, XSLT) and elements.
import type { DanmakuEvent } from '../bilibili/danmaku/commands.js';
import { VERSION } from '../version.js';
import { attrs, xmlText } from './xml-text.js';
import { DANMAKU_XSLT } from './xml-style.js';

/** The room facts written into `<BililiveRecorderRecordInfo>`. */
export interface DanmakuRecordInfo {
  roomId: number;
  shortId: number;
  name: string;
  title: string;
  areaNameParent: string;
  areaNameChild: string;
  /** ISO-8601 with offset. */
  startTime: string;
}

/** Which optional elements and attributes a file carries (brec's RecordDanmaku* settings). */
export interface DanmakuFlags {
  raw: boolean;
  superChat: boolean;
  gift: boolean;
  guard: boolean;
}

export const ROOT_CLOSE = '</i>';
const INDENT = '  ';

const COMMENT = `\nliverec ${VERSION} danmaku record, in the format of BililiveRecorder (https://rec.danmuji.org/user/danmaku/)\n` +
  'Compatible with the danmaku XML of bilibili videos: d = comment (p = time,mode,size,color,sendtime,pool,uid,0).\n' +
  'sc = super chat, gift = gift, guard = guard purchase; ts = seconds on the video file\'s own timeline; raw = the raw data.\n';

/** Everything before the first danmaku element (the UTF-8 BOM included, as .NET writes it). */
export function prologue(info: DanmakuRecordInfo): string {
  const lines = [
    '\uFEFF<?xml version="1.0" encoding="utf-8"?>',
    '<?xml-stylesheet type="text/xsl" href="#s"?>',
    '<i>',
    `${INDENT}<!--${COMMENT.replace(/--/g, '- -')}-->`,
    `${INDENT}<chatserver>chat.bilibili.com</chatserver>`,
    `${INDENT}<chatid>0</chatid>`,
    `${INDENT}<mission>0</mission>`,
    `${INDENT}<maxlimit>1000</maxlimit>`,
    `${INDENT}<state>0</state>`,
    `${INDENT}<real_name>0</real_name>`,
    `${INDENT}<source>0</source>`,
    `${INDENT}<BililiveRecorder${attrs([['version', VERSION]])} />`,
    `${INDENT}<BililiveRecorderRecordInfo${attrs([
      ['roomid', info.roomId], ['shortid', info.shortId], ['name', info.name], ['title', info.title],
      ['areanameparent', info.areaNameParent], ['areanamechild', info.areaNameChild], ['start_time', info.startTime],
    ])} />`,
    `${INDENT}<BililiveRecorderXmlStyle>${DANMAKU_XSLT}</BililiveRecorderXmlStyle>`,
  ];
  return `${lines.join('\n')}\n`;
}

/** Seconds with 3 decimals, never negative. */
export function formatTs(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

/** One indented element line; `text` null makes it empty (`<gift … />`). */
export function elementLine(name: string, pairs: readonly (readonly [string, string | number])[], text: string | null): string {
  return text === null ? `${INDENT}<${name}${attrs(pairs)} />\n` : `${INDENT}<${name}${attrs(pairs)}>${xmlText(text)}</${name}>\n`;
}

/** The element for a danmaku event at `tsMs` on the file's timeline, or null when it is not recorded. */
export function danmakuElement(ev: DanmakuEvent, tsMs: number, flags: DanmakuFlags): string | null {
  const ts = formatTs(tsMs);
  const raw = (value: unknown): [string, string][] => (flags.raw ? [['raw', JSON.stringify(value ?? null)]] : []);
  switch (ev.type) {
    case 'DANMU_MSG':
      return elementLine('d', [
        ['p', `${ts},${ev.mode},${ev.fontSize},${ev.color},${ev.sendTime},0,${ev.uid},0`], ['user', ev.uname], ...raw(ev.raw.info),
      ], ev.text);
    case 'SUPER_CHAT_MESSAGE':
      if (!flags.superChat) return null;
      return elementLine('sc', [
        ['ts', ts], ['user', ev.uname], ['uid', ev.uid], ['price', ev.price], ['time', ev.duration], ...raw(ev.raw.data),
      ], ev.message);
    case 'SEND_GIFT':
      if (!flags.gift) return null;
      return elementLine('gift', [
        ['ts', ts], ['user', ev.uname], ['uid', ev.uid], ['giftname', ev.giftName], ['giftcount', ev.num],
        // brec's gift attributes end at giftcount; a blind box adds its own name and price (blivedm's blind_gift_name /
        // blind_price), which readers of brec's format ignore.
        ...(ev.blindName !== undefined ? [['blindgiftname', ev.blindName], ['blindprice', ev.blindPrice ?? 0]] as [string, string | number][] : []),
        ...raw(ev.raw.data),
      ], null);
    case 'GUARD_BUY':
      if (!flags.guard) return null;
      return elementLine('guard', [
        ['ts', ts], ['user', ev.username], ['uid', ev.uid], ['level', ev.guardLevel], ['count', ev.num], ...raw(ev.raw.data),
      ], null);
    default:
      return null;
  }
}

/** True for the commands a danmaku file records (each counts towards the flush interval, written or not). */
export function isRecordedCommand(ev: DanmakuEvent): boolean {
  return ev.type === 'DANMU_MSG' || ev.type === 'SUPER_CHAT_MESSAGE' || ev.type === 'SEND_GIFT' || ev.type === 'GUARD_BUY';
}
