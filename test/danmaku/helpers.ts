// Helpers of the danmaku tests: read recorded XML files and match their elements to what the simulator sent.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export const KINDS = { d: 'DANMU_MSG', sc: 'SUPER_CHAT_MESSAGE', gift: 'SEND_GIFT', guard: 'GUARD_BUY' } as const;
export type Element = keyof typeof KINDS;

export interface Recorded {
  element: Element;
  seq: number;
  connection: number;
  positionMs: number;
  tsMs: number;
  attrNames: string[];
  hasRaw: boolean;
}

export const filesIn = (dir: string, ext: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(ext)).map((f) => join(dir, f)).sort();

/** Parses a danmaku file with fast-xml-parser (throws on invalid XML) and lists its generated elements. */
export function readDanmaku(path: string): { doc: Record<string, unknown>; items: Recorded[]; text: string } {
  const text = readFileSync(path, 'utf8');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`${path}: ${JSON.stringify(valid)}`);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(text) as Record<string, unknown>;
  const items: Recorded[] = [];
  for (const line of text.split('\n')) {
    const m = /^ {2}<(d|sc|gift|guard) ([^>]*?)(?: \/)?>/.exec(line);
    if (!m) continue;
    const attrs = new Map([...m[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!] as [string, string]));
    const user = /^g(\d+)@(\d+):(-?\d+)$/.exec(attrs.get('user') ?? '');
    if (!user) continue;
    const ts = m[1] === 'd' ? attrs.get('p')!.split(',')[0]! : attrs.get('ts')!;
    items.push({
      element: m[1] as Element, seq: Number(user[1]), connection: Number(user[2]), positionMs: Number(user[3]),
      tsMs: Number(ts) * 1000, attrNames: [...attrs.keys()], hasRaw: attrs.has('raw'),
    });
  }
  return { doc, items, text };
}
