// Reads a danmaku XML (brec's format, or bilibili's video danmaku XML) into its record info and items, in file order.
import { readFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { LiverecError } from '../errors.js';

export type ItemName = 'd' | 'sc' | 'gift' | 'guard';

export interface DanmakuItem {
  name: ItemName;
  /** Seconds on the file's timeline (`p`'s first field for `d`, `ts` otherwise). */
  ts: number;
  /** Attributes in file order (values decoded). */
  attrs: [string, string][];
  /** Element text (comments and super chats), else null. */
  text: string | null;
}

export interface DanmakuDocument {
  /** `<BililiveRecorderRecordInfo>` attributes, in file order (empty when absent). */
  recordInfo: [string, string][];
  items: DanmakuItem[];
}

const NAMES = new Set<string>(['d', 'sc', 'gift', 'guard']);

/** Parses a danmaku file; an unreadable or malformed file is a LiverecError with code DANMAKU_BAD_INPUT. */
export function readDanmakuFile(path: string): DanmakuDocument {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new LiverecError('DANMAKU_BAD_INPUT', `cannot read ${path}: ${(err as Error).message}`);
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new LiverecError('DANMAKU_BAD_INPUT', `${path} is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const parser = new XMLParser({
    preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, parseAttributeValue: false, trimValues: false,
  });
  const tree = parser.parse(text) as Record<string, unknown>[];
  const root = tree.find((n) => 'i' in n);
  if (!root) throw new LiverecError('DANMAKU_BAD_INPUT', `${path} has no <i> root element`);
  const doc: DanmakuDocument = { recordInfo: [], items: [] };
  for (const node of root.i as Record<string, unknown>[]) {
    const name = Object.keys(node).find((k) => k !== ':@');
    if (!name) continue;
    const attrs = Object.entries((node[':@'] ?? {}) as Record<string, string>).map(([k, v]) => [k, String(v)] as [string, string]);
    if (name === 'BililiveRecorderRecordInfo') doc.recordInfo = attrs;
    if (!NAMES.has(name)) continue;
    const children = node[name] as Record<string, unknown>[];
    const textNode = children.find((c) => '#text' in c);
    const get = (k: string): string | undefined => attrs.find(([n]) => n === k)?.[1];
    const ts = Number(name === 'd' ? (get('p') ?? '').split(',')[0] : get('ts'));
    if (!Number.isFinite(ts)) continue;
    doc.items.push({ name: name as ItemName, ts, attrs, text: name === 'd' || name === 'sc' ? String(textNode?.['#text'] ?? '') : null });
  }
  return doc;
}

/** An attribute value by name. */
export function attr(item: { attrs: [string, string][] }, name: string): string | undefined {
  return item.attrs.find(([n]) => n === name)?.[1];
}
