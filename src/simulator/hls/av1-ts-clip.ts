// The committed AV1 clip (fMP4) packaged as MPEG-TS HLS segments, following AOM's "Carriage of AV1 in MPEG-2 TS" v1.0.1.
import { readFileSync } from 'node:fs';
import { boxes, parseInit } from '../../hls/mp4-boxes.js';
import { splitObus } from '../../media/av1-config.js';
import { readSamples, type Mp4Sample } from '../../media/fmp4-fragments.js';
import { AV1_CLIPS } from '../av1-clips.js';
import { clipPath } from '../clips.js';
import type { HlsClip, HlsClipSegment } from './hls-clips.js';
import { TsMuxer } from './ts-mux.js';

/*
 * Facts from the spec (https://aomediacodec.github.io/av1-mpeg2-ts, AOMediaCodec/av1-mpeg2-ts index.bs):
 * - stream_type 0x06 (PES private data), stream_id 0xBD (private_stream_1), data_alignment_indicator 1, one access
 *   unit per PES, a PTS on every PES;
 * - in the PMT's ES_info: first a registration descriptor (tag 0x05, format_identifier 'AV01'), then the AV1 video
 *   descriptor (tag 0x80, length 4: the av1C's first four bytes with hdr_wcg_idc in two of the reserved bits);
 * - every OBU becomes a ts_open_bitstream_unit: start code 0x000001, then the OBU with 0x03 inserted after any 0x0000
 *   followed by a byte <= 0x03 (emulation prevention as in H.264); obu_size is optional; temporal delimiters may go.
 * Nobody has seen Bilibili serve AV1 over TS (docs/bilibili-2026.md): this is what a conforming stream would look like.
 */

export const AV1_STREAM_TYPE = 0x06;
export const AV1_FORMAT_IDENTIFIER = 'AV01';
const VIDEO_PID = 0x100;
const AUDIO_PID = 0x101;
/** Timestamps start here (1.4 s, ffmpeg's default mux delay), so the first PCR can precede the first decode time. */
const BASE = 126_000;
const PCR_LEAD = 63_000;
/** A temporal delimiter without obu_size (header only): the start code delimits it, and no OBU ends in 0x00. */
const TEMPORAL_DELIMITER = Buffer.from([0x10]);

/** Start code plus the escaped OBU. */
export function tsObu(obu: Uint8Array): Buffer {
  const out: number[] = [0x00, 0x00, 0x01];
  let zeros = 0;
  for (const b of obu) {
    if (zeros >= 2 && b <= 0x03) {
      out.push(0x03);
      zeros = 0;
    }
    out.push(b);
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

/** Registration descriptor ('AV01') then the AV1 video descriptor built from the av1C record (hdr_wcg_idc 0: SDR). */
export function av1Descriptors(av1C: Uint8Array): Buffer {
  const registration = Buffer.from([0x05, 4, ...Buffer.from(AV1_FORMAT_IDENTIFIER, 'latin1')]);
  // av1C byte 3: reserved (3) | initial_presentation_delay_present (1) | delay or reserved (4); the descriptor puts
  // hdr_wcg_idc (2) and a reserved zero where the three reserved bits were.
  const video = Buffer.from([0x80, 4, av1C[0]!, av1C[1]!, av1C[2]!, av1C[3]! & 0x1f]);
  return Buffer.concat([registration, video]);
}

/** The AudioSpecificConfig inside an init section's esds (DecoderSpecificInfo, tag 0x05). */
function audioSpecificConfig(init: Buffer): Buffer {
  const esds = init.indexOf('esds', 0, 'latin1');
  if (esds < 0) throw new Error('no esds');
  let p = esds + 8; // type, version and flags
  const end = init.readUInt32BE(esds - 4) + esds - 4;
  while (p < end) {
    const tag = init[p++]!;
    let len = 0;
    for (let i = 0; i < 4; i++) {
      const b = init[p++]!;
      len = (len << 7) | (b & 0x7f);
      if (!(b & 0x80)) break;
    }
    if (tag === 0x05) return init.subarray(p, p + len);
    if (tag === 0x03) p += 3; // ES_ID, flags (none set by ffmpeg)
    else if (tag === 0x04) p += 13; // objectType, streamType, bufferSize, max and average bitrate
    else p += len;
  }
  throw new Error('esds without DecoderSpecificInfo');
}

/** A 7-byte ADTS header (no CRC) for one raw AAC frame of `len` bytes. */
function adts(asc: Buffer, len: number): Buffer {
  const object = asc[0]! >> 3;
  const rate = ((asc[0]! & 0x07) << 1) | (asc[1]! >> 7);
  const channels = (asc[1]! >> 3) & 0x0f;
  const n = len + 7;
  return Buffer.from([0xff, 0xf1, ((object - 1) << 6) | (rate << 2) | (channels >> 2), ((channels & 3) << 6) | (n >> 11), (n >> 3) & 0xff, ((n & 7) << 5) | 0x1f, 0xfc]);
}

let cached: HlsClip | null = null;

/** One loop (3.84 s, the other clips' period) as four TS segments, one per GOP, each starting with PAT, PMT and a keyframe. */
export function av1TsClip(periodSec = 3.84): HlsClip {
  if (cached) return cached;
  const buf = readFileSync(clipPath(AV1_CLIPS.fmp4));
  const moov = boxes(buf).find((b) => b.type === 'moov')!;
  const init = buf.subarray(0, moov.end);
  const mp4 = parseInit(init)!;
  const video = mp4.tracks.find((t) => t.codec === 'av01')!;
  const audio = mp4.tracks.find((t) => t.handler === 'soun')!;
  const av1C = init.subarray(init.indexOf('av1C', 0, 'latin1') + 4);
  const asc = audioSpecificConfig(init);
  const samples = readSamples(buf, mp4);
  const t90 = (s: Mp4Sample, scale: number, offset = 0): number => Math.round(((s.dts + offset) * 90_000) / scale) + BASE;
  const frames = samples.filter((s) => s.trackId === video.trackId);
  const sounds = samples.filter((s) => s.trackId === audio.trackId && ((s.dts - samples.find((x) => x.trackId === audio.trackId)!.dts) / audio.timescale) < periodSec);
  const mux = new TsMuxer([
    { pid: VIDEO_PID, streamType: AV1_STREAM_TYPE, descriptors: av1Descriptors(av1C) },
    { pid: AUDIO_PID, streamType: 0x0f, descriptors: Buffer.alloc(0) },
  ], VIDEO_PID);
  const keys = frames.map((f, i) => (i === 0 || (f.flags & 0x00010000) === 0 ? i : -1)).filter((i) => i >= 0);
  const segments: HlsClipSegment[] = keys.map((k, g) => {
    const gop = frames.slice(k, keys[g + 1] ?? frames.length);
    const from = t90(gop[0]!, video.timescale);
    const to = g + 1 < keys.length ? t90(frames[keys[g + 1]!]!, video.timescale) : BASE + Math.round(periodSec * 90_000);
    const units: { t: number; bytes: Buffer }[] = gop.map((f, i) => {
      const dts = t90(f, video.timescale);
      const pts = t90(f, video.timescale, f.cto);
      const payload = Buffer.concat([tsObu(TEMPORAL_DELIMITER), ...splitObus(f.data).map((o) => tsObu(o.bytes))]);
      return { t: dts, bytes: mux.pes(VIDEO_PID, 0xbd, pts, dts, payload, { aligned: true, pcr: dts - PCR_LEAD, randomAccess: i === 0, unbounded: true }) };
    });
    for (const s of sounds) {
      const t = t90(s, audio.timescale);
      if (t >= from && t < to) units.push({ t, bytes: mux.pes(AUDIO_PID, 0xc0, t, null, Buffer.concat([adts(asc, s.data.length), s.data]), { aligned: true }) });
    }
    units.sort((a, b) => a.t - b.t);
    return { bytes: Buffer.concat([mux.tables(), ...units.map((u) => u.bytes)]), duration: (to - from) / 90_000, runs: [] };
  });
  cached = { format: 'ts', init: null, mp4: null, segments, periodSec };
  return cached;
}
