// A guest's start on one live-API call: once play info was seen capping this process's guest, ask the master playlist alone.
import type { BilibiliApiClient } from './api-client.js';
import { BiliErrorCode, type BilibiliError } from './errors.js';
import { guestCapFor, isGuestCookie, learnGuestCap, type GuestCap } from './guest-cap-memory.js';
import { resolveFromMaster } from './master-stream.js';
import { classifyStream, type StreamProvenance } from './provenance.js';
import { qualityTokens } from './quality.js';
import type { StreamFormat } from './recording-protocol.js';
import type { StreamUrl } from './stream-url.js';

/*
 * Why (issue 48): a capped guest's start was play info (current_qn 250) + the master playlist (qn 10000) + the danmaku
 * token, three calls on the per-IP budget where brec spends two. Play info adds nothing the master playlist lacks for
 * such a start: live state, title and live_time come from the batch detector, the variants and their hosts from the
 * playlist. The master playlist is on the live-API host (the `master_url` of the 2025-07 capture), so it stays one
 * live-API call and goes through the budget like play info.
 */

/** The most play info serves a capped guest (2025-07 capture, `mid=0`): the master playlist must beat it to be used. */
const GUEST_CAP_QN = 250;

const STOP_CODES: ReadonlySet<string> = new Set([BiliErrorCode.ApiPaused, BiliErrorCode.ApiRisk352, BiliErrorCode.ApiRisk412, BiliErrorCode.ApiHttp412]);

export interface Classified {
  url: StreamUrl;
  provenance: StreamProvenance;
}

export interface GuestStartInput {
  roomId: number;
  formats: readonly StreamFormat[];
  /** The streamer's uid from the batch detector (0 when unknown): biliup's anonymous_origin query sends it as `mid`. */
  uid?: number;
  signal?: AbortSignal;
}

/**
 * `byPlayInfo` (the play-info start), except for a guest whose cap this process saw within the hour and whose
 * settings allow HLS fMP4 and want 原画 or more: then the master playlist alone, and play info only when it fails or
 * lists nothing above the cap. Every play-info start of a guest tells the memory what it saw.
 */
export async function startStream(api: BilibiliApiClient, i: GuestStartInput, byPlayInfo: () => Promise<Classified>): Promise<Classified> {
  const tokens = qualityTokens(api.options.recordingQuality);
  if (!isGuestCookie(api.options.cookie) || !i.formats.includes('fmp4') || tokens[0]!.qn < 10000) return byPlayInfo();
  const host = api.options.liveApiHost;
  const known = await guestCapFor(host, i.signal);
  if (known === 'capped') {
    try {
      const url = await resolveFromMaster(api, i.roomId, tokens, i.signal, { uid: i.uid });
      if (url.currentQn > GUEST_CAP_QN) {
        const why = `play info caps this guest (seen within the hour); the master playlist lists ${url.currentQn} ${url.codec}, recorded as hls-fmp4 on one call`;
        return { url: { ...url, decision: { source: 'master-playlist', why, capped: true } }, provenance: classifyStream({ url: url.url, codec: url.codec, qn: url.currentQn }) };
      }
    } catch (err) {
      if (i.signal?.aborted || STOP_CODES.has((err as BilibiliError).code)) throw err;
      // Offline, paid, gone, nothing matching: play info says what it is.
    }
  }
  let out: Classified;
  try {
    out = await byPlayInfo();
  } catch (err) {
    if (known === 'probe') learnGuestCap(host, null);
    throw err;
  }
  const d = out.url.decision;
  const seen: GuestCap | null = d?.capped === true ? 'capped' : d?.capped === false || out.provenance.kind === 'origin' ? 'uncapped' : null;
  if (known === 'probe' || seen) learnGuestCap(host, seen);
  return out;
}
