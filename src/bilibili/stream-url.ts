// Stream URL choice as brec does it: http_stream/flv/<codec>, qn from the priority list, a random non-mcdn host.
import type { BilibiliApiClient } from './api-client.js';
import type { CodecEntry, PlayInfo, UrlInfo } from './api-models.js';
import type { CodecPreference } from './client-options.js';
import { BiliErrorCode, BilibiliError } from './errors.js';
import { chooseQn, parseQualityList } from './quality.js';

/** The codec entries to try, most wanted first: hevc falls back to avc, avc stands alone. */
export function codecOrder(pref: CodecPreference): string[] {
  return pref === 'hevc' ? ['hevc', 'avc'] : ['avc'];
}

/** The first http_stream → flv → codec entry for the first codec in `codecs` that is offered. */
export function selectFlvCodec(play: PlayInfo, codecs: readonly string[]): CodecEntry {
  if (!play.streams) {
    throw new BilibiliError(BiliErrorCode.PlayurlNull, `playurl is null (room ${play.roomId}, live_status ${play.liveStatus})`);
  }
  const flv = play.streams.find((s) => s.protocolName === 'http_stream')?.formats.find((f) => f.formatName === 'flv');
  for (const name of codecs) {
    const entry = flv?.codecs.find((c) => c.codecName === name);
    if (entry) return entry;
  }
  throw new BilibiliError(BiliErrorCode.NoStream, `No http_stream/flv stream with codec ${codecs.join(' or ')} (room ${play.roomId})`);
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
}

/**
 * The brec flow: ask at qn 10000, choose the first wanted qn in accept_qn, ask again if it differs, then pick a host.
 * Throws PLAYURL_NULL, NO_STREAM, NO_MATCHING_QN or any API error.
 */
export async function resolveStreamUrl(api: BilibiliApiClient, roomId: number, signal?: AbortSignal): Promise<StreamUrl> {
  const codecs = codecOrder(api.options.codec);
  const wanted = parseQualityList(api.options.recordingQuality);
  let entry = selectFlvCodec(await api.getPlayInfo(roomId, 10000, signal), codecs);
  const qn = chooseQn(entry.acceptQn, wanted);
  if (qn !== 10000) entry = selectFlvCodec(await api.getPlayInfo(roomId, qn, signal), codecs);
  const host = pickHost(entry.urlInfo);
  return { url: host.host + entry.baseUrl + host.extra, qn, currentQn: entry.currentQn, codec: entry.codecName, host: host.host };
}
