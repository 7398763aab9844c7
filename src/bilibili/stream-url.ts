// Stream URL choice as brec does it (http_stream/flv/<codec>, qn from the priority list, a random non-mcdn host), plus http_hls formats.
import type { BilibiliApiClient } from './api-client.js';
import type { CodecEntry, PlayInfo, UrlInfo } from './api-models.js';
import type { CodecPreference } from './client-options.js';
import { BiliErrorCode, BilibiliError } from './errors.js';
import { chooseQn, parseQualityList } from './quality.js';
import { protocolOf, type StreamFormat } from './recording-protocol.js';

/** The codec entries to try, most wanted first: hevc falls back to avc, avc stands alone. */
export function codecOrder(pref: CodecPreference): string[] {
  return pref === 'hevc' ? ['hevc', 'avc'] : ['avc'];
}

/** The first http_stream → flv → codec entry for the first codec in `codecs` that is offered. */
export function selectFlvCodec(play: PlayInfo, codecs: readonly string[]): CodecEntry {
  return selectCodec(play, 'flv', codecs);
}

/** The first <protocol> → <format> → codec entry for the first codec in `codecs` that is offered. */
export function selectCodec(play: PlayInfo, format: StreamFormat, codecs: readonly string[]): CodecEntry {
  if (!play.streams) {
    throw new BilibiliError(BiliErrorCode.PlayurlNull, `playurl is null (room ${play.roomId}, live_status ${play.liveStatus})`);
  }
  const protocol = protocolOf(format);
  const entries = play.streams.find((s) => s.protocolName === protocol)?.formats.find((f) => f.formatName === format);
  for (const name of codecs) {
    const entry = entries?.codecs.find((c) => c.codecName === name);
    if (entry) return entry;
  }
  throw new BilibiliError(BiliErrorCode.NoStream, `No ${protocol}/${format} stream with codec ${codecs.join(' or ')} (room ${play.roomId})`);
}

/** The first format of `formats` the room offers (NO_STREAM naming all of them when none is). */
export function selectFormat(play: PlayInfo, formats: readonly StreamFormat[], codecs: readonly string[]): { format: StreamFormat; entry: CodecEntry } {
  let last: unknown = null;
  for (const format of formats) {
    try {
      return { format, entry: selectCodec(play, format, codecs) };
    } catch (err) {
      if ((err as BilibiliError).code !== BiliErrorCode.NoStream) throw err;
      last = err;
    }
  }
  throw formats.length === 1 && last ? last : new BilibiliError(BiliErrorCode.NoStream, `No stream in any of the formats ${formats.join(', ')} (room ${play.roomId})`);
}

/** Drops `.mcdn.` hosts when any other exists, then picks one at random. */
export function pickHost(urlInfo: readonly UrlInfo[], random: () => number = Math.random): UrlInfo {
  if (urlInfo.length === 0) throw new BilibiliError(BiliErrorCode.NoStream, 'The stream offers no host (url_info is empty)');
  const normal = urlInfo.filter((u) => !u.host.includes('.mcdn.'));
  const pool = normal.length > 0 ? normal : urlInfo;
  return pool[Math.min(pool.length - 1, Math.floor(random() * pool.length))]!;
}

export interface StreamUrl {
  url: string;
  /** The qn asked for. */
  qn: number;
  /** The qn the service says it serves (a warning case when it differs from `qn`). */
  currentQn: number;
  codec: string;
  /** The chosen url_info host (scheme + host + port). */
  host: string;
  format: StreamFormat;
  /** The same stream on every offered host: the chosen one first, `.mcdn.` hosts last (HLS rotates through them). */
  urls: string[];
}

/**
 * The brec flow: ask at qn 10000, choose the first wanted qn in accept_qn, ask again if it differs, then pick a host.
 * `formats` (default FLV only) are tried in order against what the room offers.
 * Throws PLAYURL_NULL, NO_STREAM, NO_MATCHING_QN or any API error.
 */
export async function resolveStreamUrl(
  api: BilibiliApiClient, roomId: number, signal?: AbortSignal, formats: readonly StreamFormat[] = ['flv'],
): Promise<StreamUrl> {
  const codecs = codecOrder(api.options.codec);
  const wanted = parseQualityList(api.options.recordingQuality);
  const chosen = selectFormat(await api.getPlayInfo(roomId, 10000, signal), formats, codecs);
  const format = chosen.format;
  let entry = chosen.entry;
  const qn = chooseQn(entry.acceptQn, wanted);
  if (qn !== 10000) entry = selectCodec(await api.getPlayInfo(roomId, qn, signal), format, codecs);
  const host = pickHost(entry.urlInfo);
  const rest = entry.urlInfo.filter((u) => u !== host).sort((a, b) => Number(a.host.includes('.mcdn.')) - Number(b.host.includes('.mcdn.')));
  const urls = [host, ...rest].map((u) => u.host + entry.baseUrl + u.extra);
  return { url: urls[0]!, qn, currentQn: entry.currentQn, codec: entry.codecName, host: host.host, format, urls };
}
