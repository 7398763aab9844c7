// Guest original: play info caps a guest below what it lists (current_qn 250, accept_qn [10000, …]); the master playlist
// still lists the higher variants (biliup's anonymous_origin). Quality is decided here, before the protocol.
import type { BilibiliApiClient } from './api-client.js';
import type { CodecEntry } from './api-models.js';
import { parsePlaylist } from '../hls/playlist.js';
import { chooseFromMaster } from './master-stream.js';
import { QN_NAMES, type QualityToken, TRUE_ORIGINAL_QN } from './quality.js';
import { tokenOf, type StreamFormat } from './recording-protocol.js';
import type { StreamUrl } from './stream-url.js';

/** Why the recorder records this quality from this source (`liverec check`, logs). */
export interface QualityDecision {
  source: 'play-info' | 'master-playlist';
  /** One sentence, English (the check command and logs show it as is). */
  why: string;
  /** What play info did to this caller: capped it (the guest cap), served the origin's quality, or neither shown. */
  capped?: boolean;
}

const name = (qn: number): string => `${qn}${QN_NAMES[qn] ? ` ${QN_NAMES[qn]}` : ''}`;

/**
 * The guest cap: play info serves less than the asked quality while `accept_qn` lists it (qn 25000, never listed, counts
 * as 10000). A lower `current_qn` with the asked qn absent from `accept_qn` is not a cap: nothing better is listed.
 */
export function guestCapped(entry: CodecEntry, askedQn: number): boolean {
  const wanted = askedQn === TRUE_ORIGINAL_QN ? 10000 : askedQn;
  return entry.currentQn < wanted && entry.acceptQn.includes(wanted);
}

export interface GuestOriginalInput {
  roomId: number;
  /** The streamer's uid (play info `uid`): biliup sends it as `mid`. */
  uid: number;
  wanted: readonly QualityToken[];
  /** RecordingProtocol's formats: the master playlist serves HLS fMP4 only, so it is asked only when fmp4 is allowed. */
  formats: readonly StreamFormat[];
  /** The play-info entry the URL came from, and the URL. */
  entry: CodecEntry;
  url: StreamUrl;
  signal?: AbortSignal;
}

/**
 * The URL to record: the master playlist's best matching variant when play info capped the quality and the master
 * playlist offers more, else `url`; either way with its `decision`. Master-playlist failures keep `url` (it records).
 */
export async function guestOriginal(api: BilibiliApiClient, i: GuestOriginalInput): Promise<StreamUrl> {
  const { url, entry } = i;
  if (!guestCapped(entry, url.qn)) {
    const capped = entry.currentQn >= 10000 ? false : undefined;
    return { ...url, decision: { source: 'play-info', why: `play info serves ${name(entry.currentQn)} as asked (${tokenOf(url.format)})`, capped } };
  }
  const capped = `play info serves ${name(entry.currentQn)} while accept_qn lists ${entry.acceptQn.join(',')} (the guest cap)`;
  if (!i.formats.includes('fmp4')) {
    return { ...url, decision: { source: 'play-info', why: `${capped}; RecordingProtocol excludes hls-fmp4, the only protocol of the master playlist`, capped: true } };
  }
  let chosen: StreamUrl;
  try {
    const text = await api.getMasterPlaylist(i.roomId, url.qn, i.signal, { mid: i.uid });
    const parsed = parsePlaylist(text);
    if (parsed.kind !== 'master') throw new Error('a media playlist');
    for (const v of parsed.variants) v.uri = new URL(v.uri, `${api.options.liveApiHost}/xlive/play-gateway/master/url`).href;
    chosen = chooseFromMaster(parsed, i.wanted, i.roomId);
  } catch (err) {
    if (i.signal?.aborted) throw err;
    return { ...url, decision: { source: 'play-info', why: `${capped}; the master playlist failed (${(err as Error).message})`, capped: true } };
  }
  if (chosen.currentQn <= entry.currentQn) {
    return { ...url, decision: { source: 'play-info', why: `${capped}; the master playlist offers nothing better (${name(chosen.currentQn)})`, capped: true } };
  }
  return { ...chosen, decision: { source: 'master-playlist', why: `${capped}; the master playlist lists ${name(chosen.currentQn)} ${chosen.codec}, recorded as hls-fmp4 (quality before protocol)`, capped: true } };
}
