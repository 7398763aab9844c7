// HTTP/1.1 response heads: find the end of the head in arriving bytes and parse status and headers.
import { BiliErrorCode, BilibiliError } from './errors.js';

export interface ResponseHead {
  status: number;
  /** HTTP/1.x minor version (1.0 closes unless it says keep-alive); absent before a head arrived. */
  minor?: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
}

/** Stream hosts answer with a few hundred bytes of head; anything this large is not an HTTP server we know. */
export const MAX_HEAD_BYTES = 32 * 1024;

/** Index just past the blank line ending the head, or -1 when it has not fully arrived. */
export function headEnd(buf: Uint8Array, length: number): number {
  for (let i = 3; i < length; i++) {
    if (buf[i] === 0x0a && buf[i - 1] === 0x0d && buf[i - 2] === 0x0a && buf[i - 3] === 0x0d) return i + 1;
  }
  return -1;
}

export function parseHead(text: string, origin: string): ResponseHead {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0] ?? '');
  if (!m) throw new BilibiliError(BiliErrorCode.StreamNetwork, `${origin} did not answer with HTTP/1.x: ${JSON.stringify((lines[0] ?? '').slice(0, 60))}`);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status: Number(m[2]), minor: Number(m[1]), headers };
}
