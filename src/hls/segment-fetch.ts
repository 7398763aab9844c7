// One segment or init section fetched over the offered hosts in turn: attempts, size/CRC32 check, whole-box check.
import { LiverecError } from '../errors.js';
import { crc32 } from './crc32.js';
import { fetchStreamed, type HlsHttpOptions } from './http-fetch.js';
import type { HlsSink } from './live-client.js';
import { type PlaylistSegment, segmentExpect } from './playlist.js';

export const HlsErrorCode = {
  /** No new segment for 3 × target duration. */
  Stalled: 'HLS_STALLED',
  /** The playlist could not be fetched on any host for the watchdog time. */
  Playlist: 'HLS_PLAYLIST',
  /** A segment's size or CRC32 differs from its EXTINF title. */
  Checksum: 'HLS_CHECKSUM',
  /** A segment's bytes do not end on a box/packet boundary. */
  Incomplete: 'HLS_INCOMPLETE',
  /** A segment grew past its size cap (hls-limits.ts): cut, and the stream reconnected. */
  SegmentTooLarge: 'HLS_SEGMENT_TOO_LARGE',
  /** An init section grew past its cap (RecordMemoryBudgetMB / 8). */
  InitTooLarge: 'HLS_INIT_TOO_LARGE',
  /** Several segments in a row could not be fetched while the playlist went on: the stream is resolved again. */
  SegmentsFailing: 'HLS_SEGMENTS_FAILING',
  /** No segment committed for the progress watchdog's time (a segment that never ends, only repeats). */
  NoProgress: 'HLS_NO_PROGRESS',
} as const;

/** Errors that end the connection at once instead of being retried on the next host. */
const FATAL = new Set<string>([HlsErrorCode.SegmentTooLarge, HlsErrorCode.InitTooLarge]);
const isFatal = (err: unknown): boolean => FATAL.has(String((err as { code?: unknown })?.code));

/** What a fetch needs from its live client. */
export interface FetchContext {
  attempts: number;
  /** The URI for attempt n (attempt 0: the playlist's host; later ones: the next hosts). */
  url(uri: string, attempt: number): string;
  http(): HlsHttpOptions;
  onNetwork(bytes: number): void;
  log(msg: string, fields?: Record<string, unknown>): void;
  stopped(): boolean;
  /** The wait before attempt n + 1. */
  pause(attempt: number): Promise<void>;
  /** Caps (hls-limits.ts); absent: none. */
  maxInitBytes?: number;
  maxSegmentBytes?: number;
}

/** The init section's bytes; throws the last error once every attempt failed. */
export async function fetchInitSection(ctx: FetchContext, uri: string): Promise<Buffer> {
  for (let i = 0; ; i++) {
    try {
      const parts: Buffer[] = [];
      let size = 0;
      await fetchStreamed(ctx.url(uri, i), ctx.http(), (c) => {
        ctx.onNetwork(c.length);
        size += c.length;
        if (ctx.maxInitBytes !== undefined && size > ctx.maxInitBytes) {
          throw new LiverecError(HlsErrorCode.InitTooLarge, `init section ${uri} exceeds ${ctx.maxInitBytes} bytes (RecordMemoryBudgetMB / 8)`);
        }
        parts.push(Buffer.from(c));
      });
      return Buffer.concat(parts);
    } catch (err) {
      if (ctx.stopped() || i + 1 >= ctx.attempts || isFatal(err)) throw err;
      ctx.log(`init section: ${(err as Error).message}`, { code: (err as { code?: string }).code, attempt: i + 1 });
    }
  }
}

/** Streams the segment into the sink, again on the next host after a failure; false when every attempt failed. */
export async function fetchSegmentInto(ctx: FetchContext, sink: HlsSink, seg: PlaylistSegment): Promise<boolean> {
  const check = segmentExpect(seg);
  for (let i = 0; i < ctx.attempts && !ctx.stopped(); i++) {
    let size = 0;
    let crc = 0;
    sink.begin(seg);
    try {
      await fetchStreamed(ctx.url(seg.uri, i), ctx.http(), (c) => {
        ctx.onNetwork(c.length);
        size += c.length;
        if (check && size > check.size) {
          throw new LiverecError(HlsErrorCode.Checksum, `segment ${seg.seq}: more than the ${check.size} bytes the playlist says`);
        }
        if (ctx.maxSegmentBytes !== undefined && size > ctx.maxSegmentBytes) {
          throw new LiverecError(HlsErrorCode.SegmentTooLarge, `segment ${seg.seq} exceeds ${ctx.maxSegmentBytes} bytes`);
        }
        if (check) crc = crc32(c, crc);
        sink.data(c);
      });
      if (check && (size !== check.size || crc !== check.crc32)) {
        throw new LiverecError(HlsErrorCode.Checksum, `segment ${seg.seq}: ${size} bytes, crc32 ${crc.toString(16)}; the playlist says ${check.size} bytes, crc32 ${check.crc32.toString(16)}`);
      }
      if (!sink.end()) throw new LiverecError(HlsErrorCode.Incomplete, `segment ${seg.seq} does not end on a box or packet boundary`);
      return true;
    } catch (err) {
      sink.abort();
      if (ctx.stopped()) return false;
      if (isFatal(err)) throw err;
      ctx.log(`segment ${seg.seq}: ${(err as Error).message}`, { code: (err as { code?: string }).code, attempt: i + 1 });
      if (i + 1 < ctx.attempts) await ctx.pause(i + 1);
    }
  }
  return false;
}
