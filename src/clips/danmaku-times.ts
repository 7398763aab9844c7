// The kind and time of every element of a danmaku XML, parsed once per version of the file (heat and suggestions
// of one recording ask together, and the live page asks again every 10 s while the XML grows).
import { statSync } from 'node:fs';
import { readDanmakuFile, type ItemName } from '../danmaku/read-xml.js';

export interface TimedItem {
  name: ItemName;
  ts: number;
}

/** Versions kept: a few recordings open in a few pages. */
const KEEP = 8;
const cache = new Map<string, { key: string; items: TimedItem[] }>();

/** The XML's elements (kind and seconds), from the cache when its size and mtime are unchanged; throws as readDanmakuFile. */
export function danmakuTimes(xml: string): TimedItem[] {
  const st = statSync(xml);
  const key = `${st.size}:${st.mtimeMs}`;
  const hit = cache.get(xml);
  if (hit?.key === key) {
    cache.delete(xml);
    cache.set(xml, hit);
    return hit.items;
  }
  const items = readDanmakuFile(xml).items.map((i) => ({ name: i.name, ts: i.ts }));
  cache.delete(xml);
  cache.set(xml, { key, items });
  while (cache.size > KEEP) cache.delete(cache.keys().next().value!);
  return items;
}
