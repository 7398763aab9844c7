// A late start over HLS: the segments before the live window that the CDN still has, fetched by guessed URI, oldest first.
import { guessUri } from '../gap-backfill.js';
import { fetchStreamed, type HlsHttpOptions } from '../http-fetch.js';
import type { PlaylistSegment } from '../playlist.js';

export interface ReachBackOptions {
  http: HlsHttpOptions;
  /** Seconds of segments to reach back at most. */
  maxSeconds: number;
  /** Bytes held at most (they are written only once the oldest is known). */
  maxBytes: number;
  onNetwork(bytes: number): void;
}

/**
 * Whether the segments before `first` (the oldest listed) are known to need `first`'s init section: no
 * discontinuity at or before it since the stream began (RFC 8216: a change of encoding parameters is marked by one,
 * and EXT-X-DISCONTINUITY-SEQUENCE counts those that left the list). After one, an older segment may hold frames of
 * other parameters that no listed EXT-X-MAP describes, which decode as garbage under `first`'s.
 */
export function olderShareInit(first: PlaylistSegment): boolean {
  return !first.discontinuity && (first.discontinuitySeq ?? 0) === 0;
}

/**
 * Walks back from `first` (the oldest listed segment) one numbered URI at a time until a segment is gone, the
 * stream's start is passed, or a limit is reached. Returns the segments found, oldest first, with their bytes; none
 * when their init section is not known (see olderShareInit).
 */
export async function reachBack(first: PlaylistSegment, base: string, o: ReachBackOptions): Promise<{ seg: PlaylistSegment; bytes: Buffer }[]> {
  const found: { seg: PlaylistSegment; bytes: Buffer }[] = [];
  if (!olderShareInit(first)) return found;
  let seconds = 0;
  let bytes = 0;
  for (let seq = first.seq - 1; seq >= 0 && seconds + first.duration <= o.maxSeconds; seq--) {
    const uri = guessUri(first, seq);
    if (uri === null) break;
    const parts: Buffer[] = [];
    try {
      await fetchStreamed(new URL(uri, base).href, o.http, (c) => {
        o.onNetwork(c.length);
        parts.push(Buffer.from(c));
      });
    } catch {
      break; // gone (404) or unreachable: the oldest obtainable was the one before
    }
    const seg = { ...first, seq, uri, title: '', discontinuity: false };
    const body = Buffer.concat(parts);
    if (bytes + body.length > o.maxBytes) break;
    bytes += body.length;
    seconds += seg.duration;
    found.push({ seg, bytes: body });
  }
  return found.reverse();
}
