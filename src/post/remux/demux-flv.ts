// FLV → samples: H.264/HEVC (legacy codec 12 or Enhanced FLV) and AV1 video, AAC audio; script tags skipped.
import { aacEntry } from './sample-entries.js';
import type { FileReader } from './file-reader.js';
import type { SampleSink } from './track.js';
import { videoEntry, type VideoCodec } from './video-config.js';

const FOURCCS: Record<string, VideoCodec> = { avc1: 'avc', hvc1: 'hevc', av01: 'av1' };
const si24 = (b: Uint8Array, p: number): number => ((b[p]! << 16) | (b[p + 1]! << 8) | b[p + 2]!) << 8 >> 8;

export function demuxFlv(r: FileReader, sink: SampleSink): void {
  const head = r.read(9);
  if (!head || head.toString('latin1', 0, 3) !== 'FLV') throw new Error('not an FLV file');
  r.skip(head.readUInt32BE(5) - 9 + 4);
  let video = -1;
  let audio = -1;
  let videoConfig: Buffer | null = null;
  let audioConfig: Buffer | null = null;
  for (;;) {
    const th = r.peek(11);
    if (!th) break;
    const type = th[0]! & 0x1f;
    const size = (th[1]! << 16) | (th[2]! << 8) | th[3]!;
    const ts = ((th[7]! << 24) | (th[4]! << 16) | (th[5]! << 8) | th[6]!) >>> 0;
    if (type !== 8 && type !== 9 && type !== 18) {
      sink.anomaly('flv-lost-sync');
      break;
    }
    const whole = r.peek(11 + size + 4);
    if (!whole) {
      sink.anomaly('flv-truncated-tag');
      break;
    }
    const body = whole.subarray(11, 11 + size);
    if (type === 9 && size >= 5) {
      const b0 = body[0]!;
      let codec: VideoCodec | undefined;
      let packet: number;
      let key: boolean;
      let cto = 0;
      let data: Uint8Array | null = null;
      if (b0 & 0x80) {
        codec = FOURCCS[body.toString('latin1', 1, 5)];
        packet = b0 & 0x0f;
        key = ((b0 >> 4) & 7) === 1;
        if (packet === 1 && size >= 8) {
          cto = si24(body, 5);
          data = body.subarray(8);
        } else if (packet === 3) data = body.subarray(5);
        else if (packet === 0) data = body.subarray(5);
      } else {
        codec = (b0 & 0x0f) === 7 ? 'avc' : (b0 & 0x0f) === 12 ? 'hevc' : undefined;
        packet = body[1]!;
        key = b0 >> 4 === 1;
        cto = si24(body, 2);
        data = body.subarray(5);
      }
      if (!codec || !data) sink.anomaly('flv-unsupported-video');
      else if (packet === 0) {
        if (video < 0) {
          const v = videoEntry(codec, data);
          videoConfig = Buffer.from(data);
          video = sink.track({ handler: 'vide', timescale: 1000, sampleEntry: v.entry, width: v.width, height: v.height });
        } else if (!videoConfig!.equals(data)) sink.anomaly('flv-video-config-changed');
      } else if ((packet === 1 || packet === 3) && data.length > 0) {
        if (video < 0) sink.anomaly('flv-video-before-config');
        else sink.sample(video, ts, cto, key, data);
      }
    } else if (type === 8 && size >= 2) {
      if (body[0]! >> 4 !== 10) sink.anomaly('flv-unsupported-audio');
      else if (body[1] === 0) {
        if (audio < 0) {
          const a = aacEntry(body.subarray(2));
          audioConfig = Buffer.from(body.subarray(2));
          audio = sink.track({ handler: 'soun', timescale: 1000, sampleEntry: a.entry, width: 0, height: 0 });
        } else if (!audioConfig!.equals(body.subarray(2))) sink.anomaly('flv-audio-config-changed');
      } else if (size > 2) {
        if (audio < 0) sink.anomaly('flv-audio-before-config');
        else sink.sample(audio, ts, 0, true, body.subarray(2));
      }
    }
    r.skip(11 + size + 4);
  }
}
