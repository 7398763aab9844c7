// The committed HLS clips (fMP4: init + 4 fragments, TS: 4 segments), split into one loop of segments each.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { boxes, parseInit, parseMoof, type Mp4Init, type TrackRun } from '../../hls/mp4-boxes.js';
import { fragmentByGop, readSamples } from '../../media/fmp4-fragments.js';
import { AV1_CLIPS } from '../av1-clips.js';
import { av1TsClip } from './av1-ts-clip.js';
import { TS_PACKET } from '../../hls/ts-packets.js';
import { CLIP_FILES } from '../clip-files.js';
import { clipPath } from '../clips.js';

export type HlsFormat = 'fmp4' | 'ts';

export interface HlsClipSegment {
  bytes: Buffer;
  /** Seconds (EXTINF). */
  duration: number;
  /** fMP4: the tfdt fields to shift per loop; the offsets are into `bytes`. */
  runs: TrackRun[];
}

export interface HlsClip {
  format: HlsFormat;
  /** fMP4 init segment (ftyp + moov); null for TS. */
  init: Buffer | null;
  mp4: Mp4Init | null;
  segments: HlsClipSegment[];
  /** One loop, seconds: the FLV clip's period (3.84 s), so every track loops without drift. */
  periodSec: number;
}

const PERIOD_SEC = 3.84;

/**
 * moof+mdat pairs per segment, as the service cuts them since 2025 (a capture's 1-s segment holds four, no styp):
 * test/fixtures/bili-real/hls/shadowreplay_fmp4_media_segment_seq826_avc_aac_2025-09.m4s.
 */
export const FRAGMENTS_PER_SEGMENT = 4;

/**
 * An init section and its fragments (one per GOP, concatenated) as one loop of `periodSec`; each GOP becomes one
 * segment of FRAGMENTS_PER_SEGMENT moof+mdat pairs.
 */
export function loadFmp4(path: string, periodSec = PERIOD_SEC): HlsClip {
  const file = basename(path);
  const buf = readFileSync(path);
  const top = boxes(buf);
  const moov = top.find((b) => b.type === 'moov');
  if (!moov) throw new Error(`${file}: no moov`);
  const init = buf.subarray(0, moov.end);
  const mp4 = parseInit(init);
  const segments: HlsClipSegment[] = [];
  for (const [i, b] of top.entries()) {
    if (b.type !== 'moof') continue;
    const mdat = top[i + 1];
    if (mdat?.type !== 'mdat') throw new Error(`${file}: moof without mdat`);
    // Only moof + mdat: the hls muxer's styp/sidx index the muxer's own file, not a live edge.
    const gop = Buffer.concat([buf.subarray(b.start, b.end), buf.subarray(mdat.start, mdat.end)]);
    const bytes = mp4 ? fragmentByGop(readSamples(gop, mp4), mp4, FRAGMENTS_PER_SEGMENT)[0]! : gop;
    const runs = boxes(bytes).filter((x) => x.type === 'moof').flatMap((moof) => parseMoof(bytes, moof, mp4));
    const videoId = (runs.find((r) => mp4?.tracks.find((t) => t.trackId === r.trackId)?.handler === 'vide') ?? runs[0]!).trackId;
    const scale = mp4?.tracks.find((t) => t.trackId === videoId)?.timescale ?? 1000;
    const video = runs.filter((r) => r.trackId === videoId);
    segments.push({ bytes, duration: video.reduce((n, r) => n + r.duration, 0) / scale, runs });
  }
  return { format: 'fmp4', init: Buffer.from(init), mp4, segments, periodSec };
}

/** ffmpeg's hls muxer starts every TS segment with SDT (PID 0x11) + PAT + PMT: cut before each SDT. */
export function loadTs(path: string, periodSec = PERIOD_SEC): HlsClip {
  const buf = readFileSync(path);
  const starts: number[] = [];
  for (let p = 0; p + TS_PACKET <= buf.length; p += TS_PACKET) {
    const pid = ((buf[p + 1]! & 0x1f) << 8) | buf[p + 2]!;
    if (pid === 0x11 && buf[p + 1]! & 0x40) starts.push(p);
  }
  starts.push(buf.length);
  const count = starts.length - 1;
  const segments = starts.slice(0, -1).map((s, i) => ({ bytes: Buffer.from(buf.subarray(s, starts[i + 1])), duration: periodSec / count, runs: [] }));
  return { format: 'ts', init: null, mp4: null, segments, periodSec };
}

/** The one HEVC clip (360p): `_prohevc` fMP4 streams serve it. */
export const HEVC_FMP4_CLIP = 'clip-360p-hevc.fmp4';
/** The same HEVC clip cut into TS segments (ffmpeg -c copy from the fMP4 one): `_prohevc` TS streams serve it. */
export const HEVC_TS_CLIP = 'clip-360p-hevc.mpegts';

const cache = new Map<string, HlsClip[]>();

/** A stream's video codec as its URL names it (`_prohevc`, `_av1`). */
export type SimCodec = 'avc' | 'hevc' | 'av1';

/** The clips of one format (index 0: 360p, 1: 480p; HEVC and AV1: the one 360p clip), loaded on first use. */
export function hlsClips(format: HlsFormat, codec: SimCodec | boolean = 'avc'): HlsClip[] {
  const c: SimCodec = codec === true ? 'hevc' : codec === false ? 'avc' : codec;
  const key = `${format}${c !== 'avc' ? `-${c}` : ''}`;
  let list = cache.get(key);
  if (!list) {
    list = key === 'fmp4-hevc' ? [loadFmp4(clipPath(HEVC_FMP4_CLIP))]
      : key === 'ts-hevc' ? [loadTs(clipPath(HEVC_TS_CLIP))]
      : key === 'fmp4-av1' ? [loadFmp4(clipPath(AV1_CLIPS.fmp4))]
      // AV1 over TS: packaged by the simulator itself (the bundled ffmpeg cannot mux AV1 into MPEG-TS).
      : key === 'ts-av1' ? [av1TsClip()]
      : CLIP_FILES.map((f) => (format === 'fmp4' ? loadFmp4(clipPath(f.replace(/\.flv$/, '.fmp4'))) : loadTs(clipPath(f.replace(/\.flv$/, '.mpegts')))));
    cache.set(key, list);
  }
  return list;
}
