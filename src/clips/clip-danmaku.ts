// The danmaku of a clip's span: the source XML's elements inside it, times moved back to the clip's start, as XML and ASS.
import { writeFileSync } from 'node:fs';
import { renderAss } from '../danmaku/ass.js';
import { recordInfoOf } from '../danmaku/merge.js';
import { readDanmakuFile, type DanmakuDocument, type DanmakuItem } from '../danmaku/read-xml.js';
import { siblingVideoSize } from '../danmaku/video-size.js';
import { elementLine, formatTs, prologue } from '../danmaku/xml-format.js';
import { DanmakuXmlFile } from '../danmaku/xml-file.js';
import { LiverecError } from '../errors.js';

const DEFAULT_SIZE = { width: 1920, height: 1080 };

/** The elements with fromMs ≤ time < toMs, their times (p's first field for d, ts otherwise) moved back by fromMs. */
export function shiftItems(items: DanmakuItem[], fromMs: number, toMs: number): DanmakuItem[] {
  return items.filter((i) => i.ts * 1000 >= fromMs - 0.5 && i.ts * 1000 < toMs).map((item) => {
    const ms = item.ts * 1000 - fromMs;
    const ts = formatTs(ms);
    const attrs = item.attrs.map(([k, v]): [string, string] => {
      if (item.name === 'd' && k === 'p') return [k, [ts, ...v.split(',').slice(1)].join(',')];
      return k === 'ts' ? [k, ts] : [k, v];
    });
    return { ...item, ts: Math.max(0, ms) / 1000, attrs };
  });
}

export interface ClipDanmakuReport {
  xml: string;
  ass: string;
  /** Elements written (every kind). */
  items: number;
}

/** Writes `<out>.xml` and `<out>.ass` from the source XML; the source's record info is kept (start_time is the recording's). */
export function clipDanmaku(sourceXml: string, out: string, fromMs: number, toMs: number, videoForSize: string): ClipDanmakuReport {
  const doc = readDanmakuFile(sourceXml);
  const items = shiftItems(doc.items, fromMs, toMs);
  const xml = `${out}.xml`;
  const file = new DanmakuXmlFile(xml, prologue(recordInfoOf(doc)));
  for (const item of items) file.append(elementLine(item.name, item.attrs, item.text));
  file.close();
  if (file.failed) throw new LiverecError('CLIP_OUTPUT_IO', `cannot write ${xml}: ${file.failed.message}`);
  const clipped: DanmakuDocument = { recordInfo: doc.recordInfo, items };
  const size = siblingVideoSize(videoForSize.replace(/\.[^./\\]+$/, '.xml')) ?? DEFAULT_SIZE;
  const ass = `${out}.ass`;
  writeFileSync(ass, renderAss(clipped, { width: size.width, height: size.height }).text);
  return { xml, ass, items: items.length };
}
