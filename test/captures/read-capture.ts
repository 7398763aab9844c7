// Reading the real captures in test/fixtures/bili-real/: file lists per folder, JSON with // comments (.jsonc), JSON lines.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CAPTURES = join(import.meta.dirname, '..', 'fixtures', 'bili-real');

export const captureFiles = (folder: string): string[] => readdirSync(join(CAPTURES, folder)).sort();
export const captureText = (folder: string, file: string): string => readFileSync(join(CAPTURES, folder, file), 'utf8');
export const captureBytes = (folder: string, file: string): Buffer => readFileSync(join(CAPTURES, folder, file));

/** `//` comments removed outside strings (the .jsonc captures carry their author's notes), then trailing commas. */
export function stripJsonComments(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

/** Every JSON value in a capture file: one for .json/.jsonc, one per line for .jsonl. */
export function captureJson(folder: string, file: string): unknown[] {
  const text = captureText(folder, file);
  if (file.endsWith('.jsonl')) return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  return [JSON.parse(file.endsWith('.jsonc') ? stripJsonComments(text) : text)];
}

/** `1: 12677205` / `2: 'PNEUMA373'` lines at the top level of a protoc --decode_raw dump (nested messages skipped). */
export function decodeRawTop(text: string): Map<number, string> {
  const out = new Map<number, string>();
  let depth = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const t = line.trim();
    if (t.endsWith('{')) depth++;
    else if (t === '}') depth--;
    else if (depth === 0) {
      const m = /^(\d+): (.*)$/.exec(t);
      if (m && !out.has(Number(m[1]))) out.set(Number(m[1]), m[2]!.replace(/^'(.*)'$/, '$1'));
    }
  }
  return out;
}

/** The bytes of an `xxd`-style hexdump (offset, up to 16 bytes in groups, ASCII column). */
export function hexdumpBytes(text: string): Buffer {
  const hex = text.split('\n').map((l) => /^[0-9a-f]+: ((?:[0-9a-f]{2,4} ?)+)/i.exec(l)?.[1] ?? '').join('').replace(/\s/g, '');
  return Buffer.from(hex, 'hex');
}
