// Fault kinds of the simulator's control API: the JSON shape of each, validated with zod.
import { z } from 'zod';

const count = z.number().int().min(1).max(1_000_000).default(1);
const ms = z.number().int().min(0).max(86_400_000);

/**
 * `POST /_sim/rooms/{roomId}/faults` bodies, by `kind` (defaults in brackets):
 *
 * API faults hit the next `count` [1] API calls naming this room (any endpoint, or only paths containing
 * `path`), or every such call for `durationMs` when that is given:
 *   { kind: 'api412', count?, durationMs?, path?, inBody? }  HTTP 412 + {"code":-412,"message":"请求被拦截"};
 *                                                           inBody [false]: code -412 inside an HTTP 200 instead
 *   { kind: 'api352', count?, durationMs?, path?, compact? }  HTTP 200 + {"code":-352,...,"data":{"v_voucher":…}};
 *                                                         compact: {"code":-352,"message":"-352","ttl":1}
 *   { kind: 'api-malformed', variant, count?, durationMs?, path? }  bad answers: variant 'json' (cut JSON),
 *        'html' (an HTML error page, HTTP 200), 'missing-field' (data.room_info / data.token ... removed),
 *        'wrong-type' (ids and codes as objects), 'no-envelope' (a JSON array), 'http-500', 'nested' (a 3.8 MB
 *        envelope whose data is ~1.9 million nested arrays `[[[…]]]`, under the 4 MiB answer cap)
 *   { kind: 'api-delay', delayMs, count?, durationMs?, path? }  the answer comes after delayMs
 *
 * Stream request faults hit the next `count` [1] media requests for this room:
 *   { kind: 'stream-404', count? }   { kind: 'stream-403', count? }
 *   { kind: 'stream-delay', count?, delayMs }  response headers come only after delayMs (slow CDN)
 *   { kind: 'redirect', count?, status? [302] }  each request answers 301/302/307/308 to the same stream on the
 *        other loopback host name (127.0.0.1 <-> localhost); count 2 = a chain of two redirects
 *
 * Connection faults hit up to `count` [1] open media responses of the room first (afterMs counted from now),
 * the rest wait for the next connections (afterMs counted from connect):
 *   { kind: 'stream-cut', count?, afterMs? [500] }        the response ends in the middle of a tag (socket closed)
 *   { kind: 'stall', count?, afterMs? [0], durationMs? }  headers sent, then no byte (for durationMs, or forever)
 *   { kind: 'slow', count?, afterMs? [0], kbps? [bitrate/10], durationMs? }  trickles below the bitrate
 *   { kind: 'timestamp-jump', count?, afterMs? [500], jumpMs? [30000] }  later tags' timestamps jump (may be < 0)
 *   { kind: 'duplicate-chunk', count?, afterMs? [500] }   the last written chunk (whole tags) is sent again
 *
 * HLS faults hit the room's live HLS streams (fMP4 and TS alike), from the next segment on:
 *   { kind: 'segment-404', count? }      the next `count` segments stay 404 for good (a gap the client must count)
 *   { kind: 'playlist-stale', count? }   the next `count` playlist URLs (by trid) stop advancing; a new URL from the API is fresh
 *   { kind: 'init-change' }              the next segment comes from the other clip: new init section (fMP4), discontinuity
 *   { kind: 'sequence-reset' }           media sequence numbers restart at 1; the last two segments are listed again
 *   { kind: 'slow-segment', count?, delayMs? [3000] }  the next `count` segments send half their bytes, then the rest after delayMs
 *   { kind: 'playlist-404', count? }     the next `count` playlist requests answer 404
 *   { kind: 'segment-corrupt', count? }  the next `count` segment responses have one byte flipped (same length); a retry gets good bytes
 *
 * Room faults:
 *   { kind: 'header-change', midStream? [false], afterMs? [0] }  the room switches clip (360p <-> 480p: new SPS,
 *        new resolution, new onMetaData) from the next connect; midStream also injects the new headers into
 *        open responses after afterMs
 *        (on an HEVC URL the HEVC pair switches the same way)
 *   { kind: 'codec-switch', midStream? [false], afterMs? [0] }  every URL of the room serves the other codec
 *        (AVC <-> HEVC, same size) from the next connect; a second codec-switch switches back; midStream also
 *        injects the other codec's headers and frames into open responses after afterMs
 *   { kind: 'danmaku-drop', mode? ['terminate'] }  open danmaku sockets of the room are dropped ('terminate' =
 *        TCP close without a close frame, 'close' = close frame 1011)
 */
export const FaultSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('api412'), count, durationMs: ms.optional(), path: z.string().optional(), inBody: z.boolean().default(false) }),
  z.object({ kind: z.literal('api352'), count, durationMs: ms.optional(), path: z.string().optional(), compact: z.boolean().optional() }),
  z.object({
    kind: z.literal('api-malformed'),
    variant: z.enum(['json', 'html', 'missing-field', 'wrong-type', 'no-envelope', 'http-500', 'nested']),
    count, durationMs: ms.optional(), path: z.string().optional(),
  }),
  z.object({ kind: z.literal('api-delay'), delayMs: ms, count, durationMs: ms.optional(), path: z.string().optional() }),
  z.object({ kind: z.literal('stream-404'), count }),
  z.object({ kind: z.literal('stream-403'), count }),
  z.object({ kind: z.literal('stream-delay'), count, delayMs: ms }),
  z.object({ kind: z.literal('redirect'), count, status: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)]).default(302) }),
  z.object({ kind: z.literal('stream-cut'), count, afterMs: ms.default(500) }),
  z.object({ kind: z.literal('stall'), count, afterMs: ms.default(0), durationMs: ms.optional() }),
  z.object({ kind: z.literal('slow'), count, afterMs: ms.default(0), kbps: z.number().positive().optional(), durationMs: ms.optional() }),
  z.object({ kind: z.literal('timestamp-jump'), count, afterMs: ms.default(500), jumpMs: z.number().int().default(30_000) }),
  z.object({ kind: z.literal('duplicate-chunk'), count, afterMs: ms.default(500) }),
  z.object({ kind: z.literal('segment-404'), count }),
  z.object({ kind: z.literal('playlist-stale'), count }),
  z.object({ kind: z.literal('init-change') }),
  z.object({ kind: z.literal('sequence-reset') }),
  z.object({ kind: z.literal('slow-segment'), count, delayMs: ms.default(3000) }),
  z.object({ kind: z.literal('playlist-404'), count }),
  z.object({ kind: z.literal('segment-corrupt'), count }),
  z.object({ kind: z.literal('header-change'), midStream: z.boolean().default(false), afterMs: ms.default(0) }),
  z.object({ kind: z.literal('codec-switch'), midStream: z.boolean().default(false), afterMs: ms.default(0) }),
  z.object({ kind: z.literal('danmaku-drop'), mode: z.enum(['terminate', 'close']).default('terminate') }),
  // Live-stream rooms only (see live-stream/): the FLV endpoint drops open responses (mode 'stall': they go
  // silent, as a dead TCP path, and never resume) and refuses new ones for `seconds` while HLS keeps serving; hls-foreign: the HLS window carries the other clip; hls-retention: how long
  // the CDN keeps a segment after it left the playlist.
  z.object({ kind: z.literal('flv-outage'), seconds: z.number().positive().max(3600), mode: z.enum(['drop', 'stall']).default('drop') }),
  z.object({ kind: z.literal('hls-foreign'), on: z.boolean().default(true) }),
  z.object({ kind: z.literal('hls-retention'), seconds: z.number().min(0).max(86_400) }),
  // Live-stream rooms: every playlist request answers the same (stale) list for `seconds`, whatever its URL.
  z.object({ kind: z.literal('playlist-stall'), seconds: z.number().positive().max(3600) }),
]);

export type Fault = z.infer<typeof FaultSchema>;
export type FaultKind = Fault['kind'];

export type ApiFault = Extract<Fault, { kind: 'api412' | 'api352' | 'api-malformed' | 'api-delay' }>;
export type RequestFault = Extract<Fault, { kind: 'stream-404' | 'stream-403' | 'stream-delay' | 'redirect' }>;
export type ConnectionFault = Extract<Fault, { kind: 'stream-cut' | 'stall' | 'slow' | 'timestamp-jump' | 'duplicate-chunk' }>;

/** A fault waiting in a room's queue: remaining uses, or an expiry time for duration-based API faults. */
export interface Armed<F> {
  fault: F;
  remaining: number;
  /** Epoch ms; when set the fault hits every matching call until then, ignoring `remaining`. */
  until?: number;
}

export type HlsFault = Extract<Fault, { kind: 'segment-404' | 'playlist-stale' | 'init-change' | 'sequence-reset' | 'slow-segment' | 'playlist-404' | 'segment-corrupt' }>;
export const HLS_FAULTS = new Set<FaultKind>(['segment-404', 'playlist-stale', 'init-change', 'sequence-reset', 'slow-segment', 'playlist-404', 'segment-corrupt']);

export type LiveFault = Extract<Fault, { kind: 'flv-outage' | 'hls-foreign' | 'hls-retention' | 'playlist-stall' }>;
export const LIVE_FAULTS = new Set<FaultKind>(['flv-outage', 'hls-foreign', 'hls-retention', 'playlist-stall']);

export const API_FAULTS = new Set<FaultKind>(['api412', 'api352', 'api-malformed', 'api-delay']);
export const REQUEST_FAULTS = new Set<FaultKind>(['stream-404', 'stream-403', 'stream-delay', 'redirect']);
export const CONNECTION_FAULTS = new Set<FaultKind>(['stream-cut', 'stall', 'slow', 'timestamp-jump', 'duplicate-chunk']);

/** Takes one use of the first live fault in `queue` that matches; drops spent ones. */
export function takeFault<F>(queue: Armed<F>[], now: number, matches: (f: F) => boolean = () => true): F | null {
  for (let i = 0; i < queue.length; i++) {
    const a = queue[i]!;
    if (a.until !== undefined) {
      if (a.until <= now) {
        queue.splice(i--, 1);
        continue;
      }
      if (matches(a.fault)) return a.fault;
      continue;
    }
    if (!matches(a.fault)) continue;
    if (--a.remaining <= 0) queue.splice(i, 1);
    return a.fault;
  }
  return null;
}
