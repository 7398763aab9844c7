// Reads one HTTP/1.1 request head of the narrow shape the front door answers itself: a plain GET, whole, with nothing unusual in it.
/*
 * Why so narrow: the front door and node:http must never disagree on where a request ends (request smuggling), so
 * this reader accepts only heads whose end is beyond doubt: `GET <origin-form> HTTP/1.1`, CRLF lines, token names,
 * no body headers, no duplicates, no folded lines, at most MAX_HEADERS lines, under 8 KiB, and the blank line
 * present. Anything else, including a head still arriving, is "other" and the connection goes to node:http, whose
 * parser decides everything about it. test/api/front-door-fuzz.test.ts holds this against llhttp (node:http).
 *
 * Why a loop over char codes and no regular expression: the head of a client is the attacker's text, and a pattern
 * with a lazy value group backtracked quadratically (an 8,000-space header value cost 34 ms of the main thread).
 * Each byte below is looked at a bounded number of times (the blank-line search, the walk, one slice per field), so
 * the cost of a head is linear in its length, and its length is at most MAX_HEAD.
 */

export interface SimpleGet {
  /** The request target as sent (origin-form: starts with `/`). */
  url: string;
  /** Header values by lower-cased name, each name at most once (shared between equal heads: read only). */
  headers: ReadonlyMap<string, string>;
  /** Offset just past the head's blank line. */
  end: number;
}

/** The longest head read here, blank line included; node:http's own limit is 16 KiB. */
export const MAX_HEAD = 8192;
/** Far below node:http's maxHeadersCount (2000, beyond which it drops headers this reader would still see). */
export const MAX_HEADERS = 64;
/**
 * Headers that give a GET a body, change the connection or the protocol, or ask for credentials: node:http's to
 * handle. `Proxy-Connection` is among them because llhttp reads it as `Connection` (found by the differential fuzz:
 * `Proxy-Connection: close` ends the connection there, so a request pipelined after it must not be answered here).
 */
const NOT_OURS = new Set(['content-length', 'transfer-encoding', 'upgrade', 'expect', 'te', 'trailer', 'http2-settings', 'authorization', 'proxy-connection']);

const CR = 13, LF = 10, SP = 32, HTAB = 9, COLON = 58;
const REQUEST_START = 'GET /';
const REQUEST_END = ' HTTP/1.1\r\n';

/** RFC 9110 tchar: `!#$%&'*+-.^_\`|~`, digits and letters. */
const TCHAR = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") TCHAR[c.charCodeAt(0)] = 1;
/** Field content: HTAB, SP, visible ASCII and obs-text (0x80-0xff); no CR, LF, NUL, other controls or DEL. */
const VCHAR = new Uint8Array(256);
VCHAR[HTAB] = 1;
for (let c = 0x20; c <= 0xff; c++) if (c !== 0x7f) VCHAR[c] = 1;
/** The request target's characters: visible ASCII (no space, controls, DEL or obs-text). */
const TARGET = new Uint8Array(256);
for (let c = 0x21; c <= 0x7e; c++) TARGET[c] = 1;

/**
 * The GET whose head starts at `from` in `data` (bytes as latin1, one character per byte), or 'other' when it is
 * not one the front door may answer. Reads at most MAX_HEAD characters from `from`.
 */
export function scanSimpleGet(data: string, from: number): SimpleGet | 'other' {
  const limit = Math.min(data.length, from + MAX_HEAD);
  const blank = data.indexOf('\r\n\r\n', from);
  if (blank < 0 || blank + 4 > limit) return 'other';
  const end = blank + 4;
  // A poller sends the same bytes again and again: short heads are remembered as they were read.
  if (end - from > SEEN_HEAD_MAX) {
    const read = readHead(data, from, end);
    return read === 'other' ? 'other' : { url: read.url, headers: read.headers, end };
  }
  const text = data.slice(from, end);
  let known = seen.get(text);
  if (known === undefined) {
    known = readHead(text, 0, text.length);
    if (seen.size >= SEEN_MAX) seen.clear();
    seen.set(text, known);
  }
  return known === 'other' ? 'other' : { url: known.url, headers: known.headers, end };
}

const SEEN_MAX = 512;
/** Heads longer than this are read again each time (bounding the memory at 512 × 1 KiB). */
const SEEN_HEAD_MAX = 1024;
const seen = new Map<string, Omit<SimpleGet, 'end'> | 'other'>();

/** Reads the head in `s` from `at` to `end` (just past its blank line), in one pass. */
export function readHead(s: string, at: number, end: number): Omit<SimpleGet, 'end'> | 'other' {
  if (!s.startsWith(REQUEST_START, at)) return 'other';
  let i = at + REQUEST_START.length;
  while (i < end && TARGET[s.charCodeAt(i)] === 1) i++;
  if (!s.startsWith(REQUEST_END, i)) return 'other';
  const url = s.slice(at + REQUEST_START.length - 1, i);
  i += REQUEST_END.length;
  const headers = new Map<string, string>();
  // Each line: a token name, a colon, field content, CRLF; the blank line ends the head.
  while (i < end - 2) {
    const nameStart = i;
    while (i < end && TCHAR[s.charCodeAt(i)] === 1) i++;
    if (i === nameStart || s.charCodeAt(i) !== COLON) return 'other';
    const name = s.slice(nameStart, i).toLowerCase();
    i++;
    let valueStart = i;
    while (i < end && VCHAR[s.charCodeAt(i)] === 1) i++;
    if (s.charCodeAt(i) !== CR || s.charCodeAt(i + 1) !== LF) return 'other';
    let valueEnd = i;
    // Optional whitespace around the value is no part of it (RFC 9110 §5.5), as node:http reads it.
    while (valueStart < valueEnd && isOws(s.charCodeAt(valueStart))) valueStart++;
    while (valueEnd > valueStart && isOws(s.charCodeAt(valueEnd - 1))) valueEnd--;
    i += 2;
    if (NOT_OURS.has(name) || headers.has(name) || headers.size >= MAX_HEADERS) return 'other';
    const value = s.slice(valueStart, valueEnd);
    if (name === 'connection' && value.toLowerCase() !== 'keep-alive') return 'other';
    headers.set(name, value);
  }
  if (i !== end - 2 || s.charCodeAt(i) !== CR || s.charCodeAt(i + 1) !== LF) return 'other';
  // HTTP/1.1 requires Host; node:http answers its absence with 400.
  if (!headers.has('host')) return 'other';
  return { url, headers };
}

const isOws = (c: number): boolean => c === SP || c === HTAB;
