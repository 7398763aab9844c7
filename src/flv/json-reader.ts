// A small JSON reader that keeps object keys in document order (JSON.parse moves integer-like keys first).
import { FlvError } from './errors.js';

/** A parsed JSON value; objects are ordered [key, value] lists. */
export type JsonNode =
  | { kind: 'object'; entries: [string, JsonNode][] }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'null' };

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Parses JSON text; throws FlvError('XML_FORMAT') on malformed input. */
export function readJson(text: string): JsonNode {
  let pos = 0;
  const fail = (what: string): never => {
    throw new FlvError('XML_FORMAT', `Malformed JSON (${what}) at offset ${pos}`);
  };
  const skip = (): void => {
    while (pos < text.length && WS.has(text.charCodeAt(pos))) pos++;
  };
  const str = (): string => {
    // Find the closing quote, then let JSON.parse handle escapes of that slice.
    let i = pos + 1;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 2;
      else if (c === 0x22) break;
      else i++;
    }
    if (i >= text.length) fail('unterminated string');
    const raw = text.slice(pos, i + 1);
    pos = i + 1;
    try {
      return JSON.parse(raw) as string;
    } catch {
      return fail('bad string');
    }
  };
  const value = (depth: number): JsonNode => {
    if (depth > 128) fail('nesting too deep');
    skip();
    const c = text[pos];
    if (c === '{') {
      pos++;
      const entries: [string, JsonNode][] = [];
      skip();
      if (text[pos] === '}') { pos++; return { kind: 'object', entries }; }
      for (;;) {
        skip();
        if (text[pos] !== '"') fail('expected key');
        const key = str();
        skip();
        if (text[pos++] !== ':') fail('expected colon');
        entries.push([key, value(depth + 1)]);
        skip();
        const d = text[pos++];
        if (d === '}') return { kind: 'object', entries };
        if (d !== ',') fail('expected , or }');
      }
    }
    if (c === '[') {
      pos++;
      const items: JsonNode[] = [];
      skip();
      if (text[pos] === ']') { pos++; return { kind: 'array', items }; }
      for (;;) {
        items.push(value(depth + 1));
        skip();
        const d = text[pos++];
        if (d === ']') return { kind: 'array', items };
        if (d !== ',') fail('expected , or ]');
      }
    }
    if (c === '"') return { kind: 'string', value: str() };
    if (text.startsWith('true', pos)) { pos += 4; return { kind: 'bool', value: true }; }
    if (text.startsWith('false', pos)) { pos += 5; return { kind: 'bool', value: false }; }
    if (text.startsWith('null', pos)) { pos += 4; return { kind: 'null' }; }
    const m = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(pos, pos + 64));
    if (!m) return fail('unexpected character');
    pos += m[0].length;
    return { kind: 'number', value: Number(m[0]) };
  };
  const root = value(0);
  skip();
  if (pos !== text.length) fail('trailing characters');
  return root;
}
