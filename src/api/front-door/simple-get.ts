// Reads one HTTP/1.1 request head of the narrow shape the front door answers itself: a plain GET, whole, with nothing unusual in it.
/*
 * Why so narrow: the front door and node:http must never disagree on where a request ends (request smuggling), so
 * this reader accepts only heads whose end is beyond doubt: `GET <origin-form> HTTP/1.1`, CRLF lines, token names,
 * no body headers, no duplicates, no folded lines, under 8 KiB, and the blank line present. Anything else, including
 * a head still arriving, is "other" and the connection goes to node:http, whose parser decides everything about it.
 */

export interface SimpleGet {
  /** The request target as sent (origin-form: starts with `/`). */
  url: string;
  /** Header values by lower-cased name, each name at most once (shared between equal heads: read only). */
  headers: ReadonlyMap<string, string>;
  /** Offset just past the head's blank line. */
  end: number;
}

const MAX_HEAD = 8192;
/**
 * The whole head in one pass: `GET <origin-form> HTTP/1.1`, then lines of a token name, a colon and field content
 * as RFC 9110 allows it (visible ASCII, SP, HTAB, obs-text; no CR, LF or other controls), then the blank line. A
 * folded line starts with a space and fails the token; a bare CR or LF fails everywhere.
 */
const HEAD = /GET (\/[\x21-\x7e]*) HTTP\/1\.1\r\n((?:[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e\x80-\xff]*\r\n)*)\r\n/y;
const FIELD = /([^:]+):[ \t]*([^\r]*?)[ \t]*\r\n/g;
/** Headers that give a GET a body, change the connection or the protocol, or ask for credentials: node:http's to handle. */
const NOT_OURS = new Set(['content-length', 'transfer-encoding', 'upgrade', 'expect', 'te', 'trailer', 'http2-settings', 'authorization']);

/**
 * The GET whose head starts at `from` in `data` (bytes as latin1, one character per byte), or 'other' when it is
 * not one the front door may answer.
 */
export function scanSimpleGet(data: string, from: number): SimpleGet | 'other' {
  const blank = data.indexOf('\r\n\r\n', from);
  if (blank < 0 || blank - from > MAX_HEAD) return 'other';
  const end = blank + 4;
  const text = data.slice(from, end);
  const known = seen.get(text);
  if (known !== undefined) return known === 'other' ? 'other' : { url: known.url, headers: known.headers, end };
  const read = readHead(text);
  // A poller sends the same bytes again and again: remember a bounded number of heads as they were read.
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.set(text, read);
  return read === 'other' ? 'other' : { url: read.url, headers: read.headers, end };
}

const SEEN_MAX = 512;
const seen = new Map<string, Omit<SimpleGet, 'end'> | 'other'>();

function readHead(text: string): Omit<SimpleGet, 'end'> | 'other' {
  HEAD.lastIndex = 0;
  const m = HEAD.exec(text);
  if (m === null) return 'other';
  const headers = new Map<string, string>();
  FIELD.lastIndex = 0;
  for (let f = FIELD.exec(m[2]!); f !== null; f = FIELD.exec(m[2]!)) {
    const name = f[1]!.toLowerCase();
    const value = f[2]!;
    if (NOT_OURS.has(name) || headers.has(name)) return 'other';
    if (name === 'connection' && value.toLowerCase() !== 'keep-alive') return 'other';
    headers.set(name, value);
  }
  // HTTP/1.1 requires Host; node:http answers its absence with 400.
  if (!headers.has('host')) return 'other';
  return { url: m[1]!, headers };
}
