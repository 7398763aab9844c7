// Asking for the streamer's origin first (qn 25000, then the quality tokens) and probing whether it is offered again.
import type { BilibiliApiClient } from './api-client.js';
import type { CodecEntry, PlayInfo } from './api-models.js';
import { BiliErrorCode, BilibiliError } from './errors.js';
import { classifyStream, ORIGIN_QN, type StreamProvenance } from './provenance.js';
import { chooseQuality, qualityTokens, type StreamCodec } from './quality.js';
import type { StreamFormat } from './recording-protocol.js';
import { guestOriginal } from './guest-original.js';
import { startStream } from './guest-start.js';
import { codecEntries, needsSecondCall, resolveStreamUrl, selectFormat, streamUrlOf, type StreamUrl } from './stream-url.js';

/** A stream URL with what it is. */
export interface ClassifiedStream {
  url: StreamUrl;
  provenance: StreamProvenance;
}

/** The provenance of a codec entry, read from the URL of its first host (every host serves the same variant). */
export function entryProvenance(entry: CodecEntry, codec: StreamCodec): StreamProvenance {
  const first = entry.urlInfo[0];
  return classifyStream({ url: first ? first.host + entry.baseUrl + first.extra : entry.baseUrl, codec, qn: entry.currentQn });
}

/** The codecs in the order the quality tokens name them (avc10000,hevc10000 → avc, hevc), each once. */
function codecOrder(tokens: ReturnType<typeof qualityTokens>): StreamCodec[] {
  const out: StreamCodec[] = [];
  for (const t of tokens) if (!out.includes(t.codec)) out.push(t.codec);
  return out;
}

/**
 * The origin among the entries of a qn-25000 answer, in the tokens' codec order; null when none is an origin. A
 * preferred codec is passed over only when its stream is known to be a re-encode or transcode: one of unknown
 * provenance (`_prohevc`, an encrypted name) stays the user's choice rather than a guess.
 */
export function originIn(entries: Map<StreamCodec, CodecEntry>, format: StreamFormat, tokens: ReturnType<typeof qualityTokens>): ClassifiedStream | null {
  const wanted = new Set(tokens.filter((t) => t.qn >= 10000).map((t) => t.codec));
  for (const codec of codecOrder(tokens)) {
    const entry = entries.get(codec);
    if (!entry || entry.urlInfo.length === 0 || !wanted.has(codec)) continue;
    const provenance = entryProvenance(entry, codec);
    if (provenance.kind === 'origin') return { url: streamUrlOf(entry, codec, entry.currentQn, format), provenance };
    if (provenance.kind === 'unknown') return null;
  }
  return null;
}

/**
 * RecordingPreferOrigin (when the first quality token is 原画 or above): asks at qn 25000 (原画真彩) and takes an origin when one is offered; else the quality tokens
 * choose among the same answer (one more call only when it can change what is served: needsSecondCall). Without the
 * preference, brec's flow (resolveStreamUrl), classified. Throws what resolveStreamUrl throws.
 */
export async function resolveClassifiedStream(
  api: BilibiliApiClient, roomId: number, formats: readonly StreamFormat[], preferOrigin: boolean, signal?: AbortSignal, o: { uid?: number } = {},
): Promise<ClassifiedStream> {
  // A guest the service caps starts from the master playlist alone once that cap was seen (guest-start.ts).
  return startStream(api, { roomId, formats, uid: o.uid, signal }, () => byPlayInfo(api, roomId, formats, preferOrigin, signal));
}

async function byPlayInfo(
  api: BilibiliApiClient, roomId: number, formats: readonly StreamFormat[], preferOrigin: boolean, signal?: AbortSignal,
): Promise<ClassifiedStream> {
  const tokens = qualityTokens(api.options.recordingQuality);
  // The origin is what a user asking for 原画 (qn 10000 or above first) wants; one asking for 250 keeps 250.
  if (!preferOrigin || tokens[0]!.qn < 10000) {
    const url = await resolveStreamUrl(api, roomId, signal, formats);
    return { url, provenance: classifyStream({ url: url.url, codec: url.codec, qn: url.currentQn }) };
  }
  let selected: ReturnType<typeof selectFormat> & { uid: number };
  try {
    const play = await api.getPlayInfo(roomId, ORIGIN_QN, signal);
    selected = { ...selectFormat(play, formats), uid: play.uid };
  } catch (err) {
    // None of the formats in play info: brec's flow, which falls back to the master playlist for HLS fMP4.
    if ((err as BilibiliError).code !== BiliErrorCode.NoStream || !formats.includes('fmp4')) throw err;
    const url = await resolveStreamUrl(api, roomId, signal, formats);
    return { url, provenance: classifyStream({ url: url.url, codec: url.codec, qn: url.currentQn }) };
  }
  const { format, entries } = selected;
  const origin = originIn(entries, format, tokens);
  if (origin) return origin;
  const choice = chooseQuality(new Map([...entries].map(([codec, e]) => [codec, e.acceptQn])), tokens);
  let entry = entries.get(choice.codec)!;
  if (needsSecondCall(entry.currentQn, choice.qn, ORIGIN_QN)) {
    const again = codecEntries(await api.getPlayInfo(roomId, choice.qn, signal), format).get(choice.codec);
    if (!again) throw new BilibiliError(BiliErrorCode.NoStream, `The ${choice.codec} stream went away at qn ${choice.qn} (room ${roomId})`);
    entry = again;
  }
  // Quality before protocol: a guest-capped answer gives way to the master playlist's variant (guest-original.ts).
  const url = await guestOriginal(api, { roomId, uid: selected.uid, wanted: tokens, formats, entry, url: streamUrlOf(entry, choice.codec, choice.qn, format, api.options.recordAvoidHosts), signal });
  const provenance = url.decision?.source === 'master-playlist' ? classifyStream({ url: url.url, codec: url.codec, qn: url.currentQn }) : entryProvenance(entry, choice.codec);
  return { url, provenance };
}

/** One play-info call at qn 25000: the origin in `format` when it is offered now, else null (API errors are thrown). */
export async function probeOrigin(
  api: BilibiliApiClient, roomId: number, format: StreamFormat, signal?: AbortSignal,
): Promise<ClassifiedStream | null> {
  const play: PlayInfo = await api.getPlayInfo(roomId, ORIGIN_QN, signal);
  let entries: Map<StreamCodec, CodecEntry>;
  try {
    entries = codecEntries(play, format);
  } catch {
    return null; // offline or the format went away: the session's own reconnect logic deals with it
  }
  return originIn(entries, format, qualityTokens(api.options.recordingQuality));
}

/**
 * For `liverec check` and diagnostics: what a room offers now in `format`, each codec's stream classified, as the
 * answer to qn 25000 (one play-info call). Empty when the room is offline or lacks the format.
 */
export async function offeredSources(api: BilibiliApiClient, roomId: number, format: StreamFormat, signal?: AbortSignal): Promise<ClassifiedStream[]> {
  let entries: Map<StreamCodec, CodecEntry>;
  try {
    entries = codecEntries(await api.getPlayInfo(roomId, ORIGIN_QN, signal), format);
  } catch (err) {
    const code = (err as BilibiliError).code;
    if (code === BiliErrorCode.PlayurlNull || code === BiliErrorCode.NoStream) return [];
    throw err;
  }
  return [...entries].filter(([, e]) => e.urlInfo.length > 0).map(([codec, e]) => ({ url: streamUrlOf(e, codec, e.currentQn, format), provenance: entryProvenance(e, codec) }));
}
