// FLV → samples: H.264/HEVC (legacy codec 12 or Enhanced FLV) and AV1 video, AAC audio; script tags skipped.
// Tags are parsed in the reader's window without copies: a sample is reported by its place in the file, since
// FLV carries video as length-prefixed NAL units (or AV1 OBUs) and audio as raw AAC frames, exactly as MP4 does.
import { aacEntry } from './sample-entries.js';
import type { FileReader } from './file-reader.js';
import type { SampleSink } from './track.js';
import { videoEntry, type VideoCodec } from './video-config.js';

const FOURCCS: Record<number, VideoCodec> = { 0x61766331: 'avc', 0x68766331: 'hevc', 0x61763031: 'av1' };
const si24 = (b: Uint8Array, p: number): number => ((b[p]! << 16) | (b[p + 1]! << 8) | b[p + 2]!) << 8 >> 8;

export function demuxFlv(r: FileReader, sink: SampleSink): void {
  const head = r.read(9);
  if (!head || head.toString('latin1', 0, 3) !== 'FLV') throw new Error('not an FLV file');
  r.skip(head.readUInt32BE(5) - 9 + 4);
  let video = -1;
  let audio = -1;
  let videoConfig: Buffer | null = null;
  let audioConfig: Buffer | null = null;
  /** The tag's body from `from` on, copied (sequence headers only: they are kept). */
  const body = (from: number, size: number): Buffer => {
    r.ensure(11 + size);
    return Buffer.from(r.bytes.subarray(r.at + 11 + from, r.at + 11 + size));
  };
  while (r.ensure(11)) {
    let b = r.bytes;
    let p = r.at;
    const type = b[p]! & 0x1f;
    const size = (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;
    const ts = ((b[p + 7]! << 24) | (b[p + 4]! << 16) | (b[p + 5]! << 8) | b[p + 6]!) >>> 0;
    if (type !== 8 && type !== 9 && type !== 18) {
      sink.anomaly('flv-lost-sync');
      break;
    }
    const bodyAt = r.position + 11;
    if (bodyAt + size + 4 > r.size) {
      sink.anomaly('flv-truncated-tag');
      break;
    }
    if (type === 9 && size >= 5) {
      r.ensure(11 + Math.min(size, 8));
      b = r.bytes;
      p = r.at + 11;
      const b0 = b[p]!;
      let codec: VideoCodec | undefined;
      let packet: number;
      let key: boolean;
      let cto = 0;
      let from = -1;
      if (b0 & 0x80) {
        codec = FOURCCS[b.readUInt32BE(p + 1)];
        packet = b0 & 0x0f;
        key = ((b0 >> 4) & 7) === 1;
        // Only AVC and HEVC coded frames carry a composition offset (Enhanced RTMP); AV1's OBUs follow the FourCC.
        if (packet === 1 && codec !== 'av1' && size >= 8) {
          cto = si24(b, p + 5);
          from = 8;
        } else if (packet === 3 || packet === 0 || (packet === 1 && codec === 'av1')) from = 5;
      } else {
        codec = (b0 & 0x0f) === 7 ? 'avc' : (b0 & 0x0f) === 12 ? 'hevc' : undefined;
        packet = b[p + 1]!;
        key = b0 >> 4 === 1;
        cto = si24(b, p + 2);
        from = 5;
      }
      if (!codec || from < 0) sink.anomaly('flv-unsupported-video');
      else if (packet === 0) {
        const data = body(from, size);
        if (video < 0) {
          const v = videoEntry(codec, data);
          videoConfig = data;
          video = sink.track({ handler: 'vide', timescale: 1000, sampleEntry: v.entry, width: v.width, height: v.height });
        } else if (!videoConfig!.equals(data)) sink.anomaly('flv-video-config-changed');
      } else if ((packet === 1 || packet === 3) && size > from) {
        if (video < 0) sink.anomaly('flv-video-before-config');
        else sink.fileSample(video, ts, cto, key, bodyAt + from, size - from);
      }
    } else if (type === 8 && size >= 2) {
      r.ensure(13);
      b = r.bytes;
      p = r.at + 11;
      if (b[p]! >> 4 !== 10) sink.anomaly('flv-unsupported-audio');
      else if (b[p + 1] === 0) {
        const asc = body(2, size);
        if (audio < 0) {
          const a = aacEntry(asc);
          audioConfig = asc;
          audio = sink.track({ handler: 'soun', timescale: 1000, sampleEntry: a.entry, width: 0, height: 0 });
        } else if (!audioConfig!.equals(asc)) sink.anomaly('flv-audio-config-changed');
      } else if (size > 2) {
        if (audio < 0) sink.anomaly('flv-audio-before-config');
        else sink.fileSample(audio, ts, 0, true, bodyAt + 2, size - 2);
      }
    }
    r.skip(11 + size + 4);
  }
}
