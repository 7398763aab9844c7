// HLS from the play-gateway master playlist: the variant the quality tokens ask for, on every content-steering pathway.
import type { BilibiliApiClient } from './api-client.js';
import { BiliErrorCode, BilibiliError } from './errors.js';
import { parsePlaylist, type MasterPlaylist, type MasterVariant } from '../hls/playlist.js';
import { chooseQuality, type QualityToken, type StreamCodec, TRUE_ORIGINAL_QN } from './quality.js';
import type { StreamUrl } from './stream-url.js';

/** The codec of a variant from the first entry of its CODECS (avc1/avc3, hvc1/hev1, av01); null for others. */
export function variantCodec(codecs: string): StreamCodec | null {
  const video = codecs.split(',').map((c) => c.trim().slice(0, 4).toLowerCase());
  if (video.some((c) => c === 'avc1' || c === 'avc3')) return 'avc';
  if (video.some((c) => c === 'hvc1' || c === 'hev1')) return 'hevc';
  if (video.includes('av01')) return 'av1';
  return null;
}

/**
 * The choice from a parsed master playlist: the first wanted token offered (25000 served by the 10000 variants
 * when no 25000 one is listed), its variants ordered by BILI-PATHWAY-PRIORITY (unlisted pathways last), one URL each.
 */
export function chooseFromMaster(master: MasterPlaylist, wanted: readonly QualityToken[], roomId: number): StreamUrl {
  const byCodec = new Map<StreamCodec, MasterVariant[]>();
  for (const v of master.variants) {
    const codec = variantCodec(v.codecs);
    if (codec && v.qn > 0) byCodec.set(codec, [...(byCodec.get(codec) ?? []), v]);
  }
  if (byCodec.size === 0) throw new BilibiliError(BiliErrorCode.NoStream, `The master playlist lists no avc, hevc or av1 variant (room ${roomId})`);
  const offers = new Map([...byCodec].map(([c, list]) => [c, [...new Set(list.map((v) => v.qn))]]));
  const choice = chooseQuality(offers, wanted);
  const list = byCodec.get(choice.codec)!;
  const listed = list.filter((v) => v.qn === choice.qn);
  const variants = listed.length > 0 ? listed : list.filter((v) => choice.qn === TRUE_ORIGINAL_QN && v.qn === 10000);
  const priority = master.steering?.priority ?? [];
  const rank = (v: MasterVariant): number => {
    const i = priority.indexOf(v.pathway);
    return i < 0 ? priority.length : i;
  };
  const ordered = [...variants].sort((a, b) => rank(a) - rank(b));
  const urls = [...new Set(ordered.map((v) => v.uri))];
  const host = new URL(urls[0]!).origin;
  return { url: urls[0]!, qn: choice.qn, currentQn: variants[0]!.qn, codec: choice.codec, host, format: 'fmp4', urls };
}

/**
 * Fetches the room's master playlist and chooses from it (any API error, NO_STREAM or NO_MATCHING_QN is thrown).
 * `o.uid` (the streamer's uid) asks with biliup's anonymous_origin query, as guest original does; `o.qn` the qn asked.
 */
export async function resolveFromMaster(
  api: BilibiliApiClient, roomId: number, wanted: readonly QualityToken[], signal?: AbortSignal, o: { uid?: number; qn?: number } = {},
): Promise<StreamUrl> {
  const text = await api.getMasterPlaylist(roomId, o.qn ?? wanted[0]?.qn ?? 10000, signal, o.uid !== undefined && o.uid > 0 ? { mid: o.uid } : {});
  const parsed = parsePlaylist(text);
  if (parsed.kind !== 'master') throw new BilibiliError(BiliErrorCode.NoStream, `The master playlist of room ${roomId} is a media playlist`);
  for (const v of parsed.variants) v.uri = new URL(v.uri, `${api.options.liveApiHost}/xlive/play-gateway/master/url`).href;
  return chooseFromMaster(parsed, wanted, roomId);
}
