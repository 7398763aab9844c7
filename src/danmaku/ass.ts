// Danmaku XML → ASS subtitles: scrolling, top and bottom comments in lanes, super chats as boxes at the lower left.
import type { DanmakuDocument, DanmakuItem } from './read-xml.js';
import { attr } from './read-xml.js';

export interface AssOptions {
  width: number;
  height: number;
  /** Seconds a scrolling comment takes to cross the screen (default 8). */
  scrollSeconds?: number;
  /** Seconds a top or bottom comment stays (default 5). */
  fixedSeconds?: number;
  /** Seconds a super chat stays (default 10; its own display time is usually a minute, which would cover the picture). */
  superChatSeconds?: number;
  font?: string;
}

/** Counts of the events written, per kind. */
export interface AssResult {
  text: string;
  scroll: number;
  top: number;
  bottom: number;
  superChat: number;
}

function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}`;
}

/** Text safe inside an ASS event: no override blocks, no escapes, one line. */
function assText(text: string): string {
  return text.replace(/\\/g, '＼').replace(/\{/g, '｛').replace(/\}/g, '｝').replace(/\r?\n|\r/g, ' ');
}

/** &HBBGGRR& from a decimal RGB colour. */
function assColor(rgb: number): string {
  const b = rgb & 0xff;
  const g = (rgb >> 8) & 0xff;
  const r = (rgb >> 16) & 0xff;
  return `&H${[b, g, r].map((v) => v.toString(16).padStart(2, '0').toUpperCase()).join('')}&`;
}

/** Rendered width estimate: CJK and other wide characters one font size, the rest half. */
function textWidth(text: string, fontSize: number): number {
  let units = 0;
  for (const ch of text) units += ch.codePointAt(0)! > 0x2e7f ? 1 : 0.55;
  return Math.ceil(units * fontSize);
}

/** Picks the lane that frees first (a lane frees when its last comment no longer blocks a new one). */
class Lanes {
  private readonly freeAt: number[];
  constructor(count: number) {
    this.freeAt = new Array<number>(Math.max(1, count)).fill(-Infinity);
  }
  take(start: number, busyUntil: number): number {
    let best = 0;
    for (let i = 0; i < this.freeAt.length; i++) {
      if (this.freeAt[i]! <= start) {
        best = i;
        break;
      }
      if (this.freeAt[i]! < this.freeAt[best]!) best = i;
    }
    this.freeAt[best] = busyUntil;
    return best;
  }
}

export function renderAss(doc: DanmakuDocument, o: AssOptions): AssResult {
  const { width: W, height: H } = o;
  const scrollS = o.scrollSeconds ?? 8;
  const fixedS = o.fixedSeconds ?? 5;
  const scS = o.superChatSeconds ?? 10;
  const font = o.font ?? 'sans-serif';
  const base = Math.max(12, Math.round((H / 1080) * 48));
  const lineH = Math.round(base * 1.25);
  const lanes = Math.max(1, Math.floor((H * 0.8) / lineH));
  const scroll = new Lanes(lanes);
  const top = new Lanes(lanes);
  const bottom = new Lanes(lanes);
  const sc = new Lanes(Math.max(1, Math.floor((H * 0.4) / (lineH * 1.5))));
  const result: AssResult = { text: '', scroll: 0, top: 0, bottom: 0, superChat: 0 };
  const events: string[] = [];
  const items = [...doc.items].sort((a, b) => a.ts - b.ts);
  for (const item of items) {
    if (item.name === 'd') events.push(comment(item));
    else if (item.name === 'sc') events.push(superChat(item));
  }

  function comment(item: DanmakuItem): string {
    const p = (attr(item, 'p') ?? '').split(',');
    const mode = Number(p[1] ?? 1);
    const size = Math.round((base * (Number(p[2]) || 25)) / 25);
    const color = Number(p[3]);
    const text = assText(item.text ?? '');
    const style = `\\fs${size}${Number.isFinite(color) && color !== 0xffffff ? `\\c${assColor(color)}` : ''}`;
    const t = item.ts;
    if (mode === 4 || mode === 5) {
      const lanesOf = mode === 5 ? top : bottom;
      const lane = lanesOf.take(t, t + fixedS);
      const y = mode === 5 ? lane * lineH : H - lane * lineH;
      if (mode === 5) result.top++;
      else result.bottom++;
      return `Dialogue: 1,${assTime(t)},${assTime(t + fixedS)},Danmaku,,0,0,0,,{\\an${mode === 5 ? 8 : 2}\\pos(${W / 2},${y})${style}}${text}`;
    }
    const w = textWidth(text, size);
    const speed = (W + w) / scrollS;
    // The lane is free again once this comment has fully entered the screen plus a gap.
    const lane = scroll.take(t, t + (w + base) / speed);
    result.scroll++;
    return `Dialogue: 0,${assTime(t)},${assTime(t + scrollS)},Danmaku,,0,0,0,,{\\an7\\move(${W},${lane * lineH},${-w},${lane * lineH})${style}}${text}`;
  }

  function superChat(item: DanmakuItem): string {
    const t = item.ts;
    const slot = sc.take(t, t + scS);
    const y = H - Math.round(H * 0.05) - slot * Math.round(lineH * 1.5);
    result.superChat++;
    const head = `¥${attr(item, 'price') ?? ''} ${attr(item, 'user') ?? ''}`;
    return `Dialogue: 2,${assTime(t)},${assTime(t + scS)},SuperChat,,0,0,0,,{\\an1\\pos(${Math.round(W * 0.02)},${y})}${assText(head)}: ${assText(item.text ?? '')}`;
  }

  const outline = Math.max(1, Math.round(base / 24));
  result.text = [
    '[Script Info]',
    '; Rendered by liverec from a danmaku XML',
    'ScriptType: v4.00+',
    `PlayResX: ${W}`,
    `PlayResY: ${H}`,
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Danmaku,${font},${base},&H30FFFFFF,&H30FFFFFF,&H30000000,&H00000000,0,0,0,0,100,100,0,0,1,${outline},0,7,0,0,0,1`,
    `Style: SuperChat,${font},${Math.round(base * 0.8)},&H00FFFFFF,&H00FFFFFF,&H0040A0E0,&H0040A0E0,1,0,0,0,100,100,0,0,3,${outline * 3},0,1,0,0,0,1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...events,
    '',
  ].join('\n');
  return result;
}
