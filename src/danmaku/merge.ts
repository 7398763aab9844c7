// `tool danmaku-merge`: several danmaku XMLs into one, times shifted by each file's start (or given offsets).
import { LiverecError } from '../errors.js';
import { type DanmakuDocument, attr, readDanmakuFile } from './read-xml.js';
import { elementLine, formatTs, prologue } from './xml-format.js';
import { DanmakuXmlFile } from './xml-file.js';

export interface MergeResult {
  output: string;
  /** Seconds each input was shifted by, in input order. */
  offsets: number[];
  items: number;
}

/**
 * As brec: at least two inputs; without `offsets` each input is shifted by its start_time minus the earliest
 * start_time; `offsets` (seconds) must name one per input. The earliest file's record info is kept.
 */
export function mergeDanmaku(output: string, inputs: string[], offsets?: number[]): MergeResult {
  if (inputs.length < 2) throw new LiverecError('DANMAKU_BAD_INPUT', 'danmaku-merge needs at least two input files');
  if (offsets && offsets.length !== inputs.length) {
    throw new LiverecError('DANMAKU_BAD_INPUT', `--offsets names ${offsets.length} values for ${inputs.length} inputs`);
  }
  const docs = inputs.map((path) => readDanmakuFile(path));
  const starts = docs.map((d, i) => {
    const t = Date.parse(attr({ attrs: d.recordInfo }, 'start_time') ?? '');
    if (!offsets && !Number.isFinite(t)) throw new LiverecError('DANMAKU_BAD_INPUT', `${inputs[i]} has no start_time; pass --offsets`);
    return t;
  });
  const earliest = starts.indexOf(Math.min(...starts.map((t) => (Number.isFinite(t) ? t : Infinity))));
  const shift = offsets ?? starts.map((t) => (t - starts[earliest]!) / 1000);
  const merged = docs.flatMap((doc, i) => doc.items.map((item) => ({ ...item, ts: item.ts + shift[i]! })));
  merged.sort((a, b) => a.ts - b.ts);
  const file = new DanmakuXmlFile(output, prologue(recordInfoOf(docs[Math.max(0, earliest)]!)));
  for (const item of merged) {
    const ts = formatTs(item.ts * 1000);
    const attrs = item.attrs.map(([k, v]): [string, string] => {
      if (item.name === 'd' && k === 'p') return [k, [ts, ...v.split(',').slice(1)].join(',')];
      return k === 'ts' ? [k, ts] : [k, v];
    });
    file.append(elementLine(item.name, attrs, item.text));
  }
  file.close();
  if (file.failed) throw new LiverecError('DANMAKU_OUTPUT_IO', `cannot write ${output}: ${file.failed.message}`);
  return { output, offsets: shift, items: merged.length };
}

/** A document's record info as the prologue writes it (missing attributes empty). */
export function recordInfoOf(doc: DanmakuDocument): Parameters<typeof prologue>[0] {
  const get = (k: string): string => attr({ attrs: doc.recordInfo }, k) ?? '';
  return {
    roomId: Number(get('roomid')) || 0, shortId: Number(get('shortid')) || 0, name: get('name'), title: get('title'),
    areaNameParent: get('areanameparent'), areaNameChild: get('areanamechild'), startTime: get('start_time'),
  };
}
