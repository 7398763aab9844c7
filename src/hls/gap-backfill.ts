// Segments that left the playlist before they were fetched, rebuilt from the sequence number in the segment URIs.
import type { PlaylistSegment } from './playlist.js';

/**
 * At most this many missing segments are asked for by a guessed URI: a CDN keeps segments a while after they leave
 * the live window, but a longer hole means a long outage, and the live segments must not wait behind 404s.
 */
export const BACKFILL_MAX = 30;

/**
 * The segments numbered `lastSeq + 1 … next.seq - 1`, with `next`'s URI renumbered, when the last number in that
 * URI's base name is its sequence number (Bilibili's `<seq>.m4s` and `…-<seq>.ts`); otherwise none.
 * They carry no size/CRC title, so they are taken as the host sends them.
 */
export function guessMissing(lastSeq: number, next: PlaylistSegment): PlaylistSegment[] {
  const missing = next.seq - lastSeq - 1;
  if (missing <= 0 || missing > BACKFILL_MAX) return [];
  const out: PlaylistSegment[] = [];
  for (let seq = lastSeq + 1; seq < next.seq; seq++) {
    const uri = guessUri(next, seq);
    if (uri === null) return [];
    out.push({ seq, uri, duration: next.duration, title: '', map: next.map, discontinuity: false });
  }
  return out;
}

/**
 * `known`'s URI renumbered to `seq`, when the last number in that URI's base name is its sequence number
 * (Bilibili's `<seq>.m4s` and `…-<seq>.ts`); otherwise null.
 */
export function guessUri(known: PlaylistSegment, seq: number): string | null {
  const q = known.uri.search(/[?#]/);
  const path = q < 0 ? known.uri : known.uri.slice(0, q);
  const rest = q < 0 ? '' : known.uri.slice(q);
  const slash = path.lastIndexOf('/') + 1;
  const dot = path.lastIndexOf('.');
  const stemEnd = dot > slash ? dot : path.length; // the extension may hold digits too (.m4s)
  const m = /(\d+)(\D*)$/.exec(path.slice(slash, stemEnd));
  if (!m || Number(m[1]) !== known.seq || seq < 0) return null;
  const head = path.slice(0, slash + m.index);
  const tail = `${m[2]}${path.slice(stemEnd)}${rest}`;
  return `${head}${String(seq).padStart(m[1]!.length, '0')}${tail}`;
}
