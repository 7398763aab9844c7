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
  const q = next.uri.search(/[?#]/);
  const path = q < 0 ? next.uri : next.uri.slice(0, q);
  const rest = q < 0 ? '' : next.uri.slice(q);
  const slash = path.lastIndexOf('/') + 1;
  const dot = path.lastIndexOf('.');
  const stemEnd = dot > slash ? dot : path.length; // the extension may hold digits too (.m4s)
  const m = /(\d+)(\D*)$/.exec(path.slice(slash, stemEnd));
  if (!m || Number(m[1]) !== next.seq) return [];
  const head = path.slice(0, slash + m.index);
  const tail = `${m[2]}${path.slice(stemEnd)}${rest}`;
  const width = m[1]!.length;
  const out: PlaylistSegment[] = [];
  for (let seq = lastSeq + 1; seq < next.seq; seq++) {
    const uri = `${head}${String(seq).padStart(width, '0')}${tail}`;
    out.push({ seq, uri, duration: next.duration, title: '', map: next.map, discontinuity: false });
  }
  return out;
}
