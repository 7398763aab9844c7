// Builds the simulator's AV1 clips from an encoder's fragmented MP4: a proper av1C, fMP4 (init + one fragment per GOP), Enhanced FLV.
import { buildAv1C, findSequenceHeader } from '../media/av1-config.js';
import { fragmentByGop, readSamples, replaceBox, type Mp4Sample } from '../media/fmp4-fragments.js';
import { boxes, child, parseInit, path } from '../hls/mp4-boxes.js';
import { encodeAmf } from '../flv/amf.js';
import { makeOnMetaData } from '../flv/metadata.js';
import { FlvParser } from '../flv/parser.js';
import { FLV_FILE_HEADER, encodeTag } from '../flv/tag-encoding.js';
import { TagFlag, TagType } from '../flv/tag.js';

/** Enhanced FLV (E-RTMP v1) video: IsExHeader, frame type, packet type, then the FourCC. */
const EX_HEADER = 0x80;
const AV01 = Buffer.from('av01', 'latin1');
export const AV1_PACKET = { SequenceStart: 0, CodedFrames: 1 } as const;

/**
 * An fMP4 (init + fragments, as an encoder wrote it) with its av01 sample entry's av1C rebuilt from the first
 * sequence header OBU (some encoders write an empty av1C) and its media as one fragment per GOP.
 */
export function av1Fmp4(encoded: Buffer): { fmp4: Buffer; av1C: Buffer; samples: Mp4Sample[]; timescales: Map<number, number>; videoTrack: number } {
  const moov = boxes(encoded).find((b) => b.type === 'moov');
  if (!moov) throw new Error('no moov');
  let init: Buffer = Buffer.from(encoded.subarray(0, moov.end));
  const info = parseInit(init);
  const video = info?.tracks.find((t) => t.codec === 'av01');
  if (!info || !video) throw new Error('no av01 track');
  const samples = readSamples(encoded, info);
  const first = samples.find((s) => s.trackId === video.trackId);
  const seqHeader = first && findSequenceHeader(first.data);
  if (!seqHeader) throw new Error('the first AV1 sample carries no sequence header');
  const av1C = buildAv1C(seqHeader);
  // moov > trak > mdia > minf > stbl > stsd > av01 > av1C
  const m = boxes(init).find((b) => b.type === 'moov')!;
  const trak = boxes(init, m.body, m.end).find((t) => t.type === 'trak' && path(init, t, 'mdia', 'minf', 'stbl', 'stsd') && child(init, path(init, t, 'mdia', 'minf', 'stbl', 'stsd')!, 'av01', 8))!;
  const mdia = child(init, trak, 'mdia')!;
  const minf = child(init, mdia, 'minf')!;
  const stbl = child(init, minf, 'stbl')!;
  const stsd = child(init, stbl, 'stsd')!;
  const entry = child(init, stsd, 'av01', 8)!;
  const old = boxes(init, entry.body + 78, entry.end).find((b) => b.type === 'av1C');
  if (!old) throw new Error('av01 entry without av1C');
  const box = Buffer.alloc(8);
  box.writeUInt32BE(8 + av1C.length, 0);
  box.write('av1C', 4, 'latin1');
  init = replaceBox(init, [m, trak, mdia, minf, stbl, stsd, entry, old], Buffer.concat([box, av1C]));
  const fixed = parseInit(init)!;
  const fragments = fragmentByGop(samples, fixed, 1);
  const timescales = new Map(fixed.tracks.map((t) => [t.trackId, t.timescale]));
  return { fmp4: Buffer.concat([init, ...fragments]), av1C, samples, timescales, videoTrack: video.trackId };
}

/** Enhanced FLV `av01` body: SequenceStart with the av1C record, or CodedFrames with one temporal unit (no composition time). */
export function av1FlvBody(packet: number, keyframe: boolean, payload: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([EX_HEADER | ((keyframe ? 1 : 2) << 4) | packet]), AV01, payload]);
}

/** An Enhanced FLV of the AV1 samples and the AAC of `aacFlv` (tags by timestamp), the way a CDN serves av01 over FLV. */
export function av1Flv(av1: ReturnType<typeof av1Fmp4>, aacFlv: Uint8Array, width: number, height: number): Buffer {
  const scale = av1.timescales.get(av1.videoTrack) ?? 1000;
  const video = av1.samples.filter((s) => s.trackId === av1.videoTrack);
  const t0 = video[0]!.dts;
  const audio = new FlvParser().push(aacFlv).tags.filter((t) => t.type === TagType.Audio);
  const meta = new Map([
    ['width', { type: 'Number' as const, value: width }], ['height', { type: 'Number' as const, value: height }],
    ['framerate', { type: 'Number' as const, value: 25 }], ['videocodecid', { type: 'Number' as const, value: AV01.readUInt32BE(0) }],
    ['audiocodecid', { type: 'Number' as const, value: 10 }], ['encoder', { type: 'String' as const, value: 'liverec-simulator' }],
  ]);
  const out: { ts: number; order: number; tag: Buffer }[] = [
    { ts: -2, order: 0, tag: encodeTag(TagType.Script, 0, encodeAmf(makeOnMetaData(meta))) },
    { ts: -1, order: 1, tag: encodeTag(TagType.Video, 0, av1FlvBody(AV1_PACKET.SequenceStart, true, av1.av1C)) },
  ];
  for (const s of video) {
    const ts = Math.round(((s.dts - t0) / scale) * 1000);
    out.push({ ts, order: 3, tag: encodeTag(TagType.Video, ts, av1FlvBody(AV1_PACKET.CodedFrames, (s.flags & 0x00010000) === 0, s.data)) });
  }
  for (const a of audio) {
    const header = (a.flag & TagFlag.Header) !== 0;
    out.push({ ts: header ? -1 : a.timestamp, order: header ? 2 : 4, tag: encodeTag(TagType.Audio, header ? 0 : a.timestamp, a.data!) });
  }
  out.sort((x, y) => x.ts - y.ts || x.order - y.order);
  return Buffer.concat([FLV_FILE_HEADER, ...out.map((o) => o.tag)]);
}
