// Test recordings for clips: a 19.2 s FLV of the simulator clip, and a danmaku XML with a known pattern written by hand.
import { writeFileSync } from 'node:fs';
import { longFlv } from '../../bench/long-flv.js';

export type Kind = 'd' | 'sc' | 'gift' | 'guard';
export interface Item { kind: Kind; t: number; text?: string }

/** Five loops of clip-360p.flv: 19.2 s, a keyframe every 0.96 s from 0.021 s. */
export function sourceFlv(path: string): void {
  longFlv('clip-360p.flv', 5, path);
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** A brec-style danmaku XML (written here, not by liverec's writer) holding exactly `items`. */
export function writeXml(path: string, items: Item[]): void {
  const lines = items.map((it, i) => {
    const t = it.t.toFixed(3);
    const text = esc(it.text ?? `c${i}`);
    switch (it.kind) {
      case 'd': return `  <d p="${t},1,25,16777215,1700000000000,0,${1000 + i},0" user="u${i}">${text}</d>`;
      case 'sc': return `  <sc ts="${t}" user="u${i}" uid="${i}" price="30" time="60">${text}</sc>`;
      case 'gift': return `  <gift ts="${t}" user="u${i}" uid="${i}" giftname="flower" giftcount="2" />`;
      case 'guard': return `  <guard ts="${t}" user="u${i}" uid="${i}" level="3" count="1" />`;
    }
  });
  writeFileSync(path, ['<?xml version="1.0" encoding="utf-8"?>', '<i>', '  <chatserver>chat.bilibili.com</chatserver>',
    '  <BililiveRecorderRecordInfo roomid="23058" shortid="0" name="n" title="t" areanameparent="a" areanamechild="b" start_time="2026-11-28T20:00:00.0000000+08:00" />',
    ...lines, '</i>', ''].join('\n'));
}

/** Comments every 0.5 s from 0 to 19 s, a burst of 20 at 14–14.95 s, and one super chat, gift and guard purchase inside 5–12 s. */
export function clipPattern(): Item[] {
  const items: Item[] = [];
  for (let t = 0; t <= 19; t += 0.5) items.push({ kind: 'd', t });
  for (let k = 0; k < 20; k++) items.push({ kind: 'd', t: 14 + k * 0.05, text: `burst ${k}` });
  items.push({ kind: 'sc', t: 6 }, { kind: 'gift', t: 8.2 }, { kind: 'guard', t: 11.9 }, { kind: 'd', t: 4.82, text: 'just before the keyframe' });
  return items.sort((a, b) => a.t - b.t);
}

/** Elements in an XML's text, by name (counted by a regular expression, independently of liverec's reader). */
export function countElements(xml: string): Record<Kind, number> {
  const n = (name: string): number => (xml.match(new RegExp(`<${name}[ >/]`, 'g')) ?? []).length;
  return { d: n('d'), sc: n('sc'), gift: n('gift'), guard: n('guard') };
}
