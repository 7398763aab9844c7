// Stream URL choice as brec 2.15 does it (codec + qn from the quality tokens, a random non-mcdn host), plus http_hls formats.
import type { BilibiliApiClient } from './api-client.js';
import type { CodecEntry, PlayInfo, UrlInfo } from './api-models.js';
import { BiliErrorCode, BilibiliError } from './errors.js';
import { type StreamCodec, chooseQuality, qualityTokens } from './quality.js';
import { protocolOf, type StreamFormat } from './recording-protocol.js';
import { resolveFromMaster } from './master-stream.js';
import { guestOriginal, type QualityDecision } from './guest-original.js';
import { avoided, parseAvoidHosts } from './avoid-hosts.js';

const CODECS: readonly StreamCodec[] = ['avc', 'hevc', 'av1'];

/**
 * The <protocol> → <format> codec entries by codec name (the first of each; `drm: true` entries never); PLAYURL_NULL
 * when offline, else NO_STREAM when none.
 */
export function codecEntries(play: PlayInfo, format: StreamFormat): Map<StreamCodec, CodecEntry> {
  if (!play.streams) {
    throw new BilibiliError(BiliErrorCode.PlayurlNull, `playurl is null (room ${play.roomId}, live_status ${play.liveStatus})`);
  }
  const protocol = protocolOf(format);
  const entries = play.streams.find((s) => s.protocolName === protocol)?.formats.find((f) => f.formatName === format);
  const out = new Map<StreamCodec, CodecEntry>();
  for (const c of entries?.codecs ?? []) {
    const codec = c.codecName as StreamCodec;
    if (CODECS.includes(codec) && !c.drm && !out.has(codec)) out.set(codec, c);
  }
  if (out.size === 0) throw new BilibiliError(BiliErrorCode.NoStream, `No ${protocol}/${format} stream with codec avc, hevc or av1 without DRM (room ${play.roomId})`);
  return out;
}

/** The first format of `formats` the room offers (NO_STREAM naming all of them when none is). */
export function selectFormat(play: PlayInfo, formats: readonly StreamFormat[]): { format: StreamFormat; entries: Map<StreamCodec, CodecEntry> } {
  let last: unknown = null;
  for (const format of formats) {
    try {
      return { format, entries: codecEntries(play, format) };
    } catch (err) {
      if ((err as BilibiliError).code !== BiliErrorCode.NoStream) throw err;
      last = err;
    }
  }
  throw formats.length === 1 && last ? last : new BilibiliError(BiliErrorCode.NoStream, `No stream in any of the formats ${formats.join(', ')} (room ${play.roomId})`);
}

/**
 * Failures after which the master playlist is tried: no stream in the wanted formats, an API error or an unreadable
 * answer. Not: a room that does not exist, is encrypted or cannot be recorded by a guest (paid, guard-only, DRM), an
 * offline room (null playurl), or risk control (every call pauses).
 */
function masterFallbackApplies(err: unknown): boolean {
  const code = (err as BilibiliError).code;
  return code !== BiliErrorCode.ApiRoomNotFound && code !== BiliErrorCode.ApiRoomEncrypted && code !== BiliErrorCode.RoomUnavailable
    && code !== BiliErrorCode.ApiRisk352
    && code !== BiliErrorCode.ApiRisk412 && code !== BiliErrorCode.ApiHttp412 && code !== BiliErrorCode.ApiPaused && code !== BiliErrorCode.PlayurlNull
    && code !== undefined;
}

/** Drops RecordAvoidHosts matches (default: PCDN hosts) when any other host exists, then picks one at random. */
export function pickHost(urlInfo: readonly UrlInfo[], random: () => number = Math.random, avoid: readonly RegExp[] = parseAvoidHosts(undefined).patterns): UrlInfo {
  if (urlInfo.length === 0) throw new BilibiliError(BiliErrorCode.NoStream, 'The stream offers no host (url_info is empty)');
  const normal = urlInfo.filter((u) => !avoided(u.host, avoid));
  const pool = normal.length > 0 ? normal : urlInfo;
  return pool[Math.min(pool.length - 1, Math.floor(random() * pool.length))]!;
}

export interface StreamUrl {
  url: string;
  /** The qn asked for. */
  qn: number;
  /** The qn the service says it serves (a warning case when it differs from `qn`). */
  currentQn: number;
  /** The codec of the chosen quality token. */
  codec: StreamCodec;
  /** The chosen url_info host (scheme + host + port). */
  host: string;
  format: StreamFormat;
  /** The same stream on every offered host: the chosen one first, `.mcdn.` hosts last (HLS rotates through them). */
  urls: string[];
  /** Why this quality from this source (set by guestOriginal; absent on the master-playlist fallback). */
  decision?: QualityDecision;
}

/**
 * The brec 2.15 flow: ask at qn 10000, take the first quality token (codec + qn) that the entries offer, ask
 * again if the qn differs, then pick a host. `formats` (default FLV only) are tried in order against what the
 * room offers. Throws PLAYURL_NULL, NO_STREAM, NO_MATCHING_QN or any API error.
 */
export async function resolveStreamUrl(
  api: BilibiliApiClient, roomId: number, signal?: AbortSignal, formats: readonly StreamFormat[] = ['flv'],
): Promise<StreamUrl> {
  const wanted = qualityTokens(api.options.recordingQuality);
  let selected: ReturnType<typeof selectFormat> & { uid: number };
  try {
    const play = await api.getPlayInfo(roomId, 10000, signal);
    selected = { ...selectFormat(play, formats), uid: play.uid };
  } catch (err) {
    // getRoomPlayInfo failed or offers none of the formats: the play-gateway master playlist still lists HLS fMP4.
    if (!formats.includes('fmp4') || !masterFallbackApplies(err)) throw err;
    try {
      return await resolveFromMaster(api, roomId, wanted, signal);
    } catch (masterErr) {
      if (signal?.aborted) throw masterErr;
      throw err;
    }
  }
  const { format, entries, uid } = selected;
  const choice = chooseQuality(new Map([...entries].map(([codec, e]) => [codec, e.acceptQn])), wanted);
  let entry = entries.get(choice.codec)!;
  if (needsSecondCall(entry.currentQn, choice.qn, 10000)) {
    // Another qn (or 25000, which accept_qn never lists) is asked for by name.
    const again = codecEntries(await api.getPlayInfo(roomId, choice.qn, signal), format).get(choice.codec);
    if (!again) throw new BilibiliError(BiliErrorCode.NoStream, `The ${choice.codec} stream went away at qn ${choice.qn} (room ${roomId})`);
    entry = again;
  }
  // Quality before protocol: a guest-capped answer is replaced by the master playlist's variant when it has more.
  return guestOriginal(api, { roomId, uid, wanted, formats, entry, url: streamUrlOf(entry, choice.codec, choice.qn, format, api.options.recordAvoidHosts), signal });
}

/**
 * Whether a play-info answer at `asked` that serves `served` for the chosen codec is worth a second call at `chosen`
 * (issue 48: a start costs one call). Not when it already serves the chosen qn, nor when it serves less than chosen
 * while the chosen one is no higher than what was asked: the service already capped this caller (a guest gets 250
 * while accept_qn lists 10000), and asking for less would not give more. Yes when the chosen qn is lower than the one
 * served (the user wants 400, say) or higher than the one asked (25000 by name).
 */
export function needsSecondCall(served: number, chosen: number, asked: number): boolean {
  if (served === chosen) return false;
  return chosen < served || chosen > asked;
}

/** The StreamUrl of one codec entry: a random host not avoided first, then the others (avoided ones last). */
export function streamUrlOf(entry: CodecEntry, codec: StreamCodec, qn: number, format: StreamFormat, avoidText?: string): StreamUrl {
  const avoid = parseAvoidHosts(avoidText).patterns; // undefined: the default list; '': none
  const host = pickHost(entry.urlInfo, Math.random, avoid);
  const rest = entry.urlInfo.filter((u) => u !== host).sort((a, b) => Number(avoided(a.host, avoid)) - Number(avoided(b.host, avoid)));
  const urls = [host, ...rest].map((u) => u.host + entry.baseUrl + u.extra);
  return { url: urls[0]!, qn, currentQn: entry.currentQn, codec, host: host.host, format, urls };
}
