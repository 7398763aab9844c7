// What a video sequence header tells onMetaData: codec, picture size and (HEVC VUI) frame rate, for AVC and HEVC.
import { avcHeaderPictureSize } from '../avc-sps.js';
import { hvccSpsInfo } from './hevc.js';
import { CODEC_ID, FOURCC, type HevcOutputForm, type VideoCodec, videoCodecOf } from './video-format.js';

export interface VideoHeaderInfo {
  codec: VideoCodec;
  width: number;
  height: number;
  /** 0 when the header does not say. */
  fps: number;
}

/** Reads a sequence-header body in the internal layout; null when it is not one or cannot be read. */
export function videoHeaderInfo(body: Uint8Array | null): VideoHeaderInfo | null {
  const codec = videoCodecOf(body);
  if (!body || !codec || body.length < 6) return null;
  if (codec === 'avc') {
    const size = avcHeaderPictureSize(body);
    return size ? { codec, ...size, fps: 0 } : null;
  }
  const sps = hvccSpsInfo(body.subarray(5));
  return sps ? { codec, width: sps.width, height: sps.height, fps: sps.fps } : null;
}

/** onMetaData `videocodecid` for a file written with this codec and form. */
export function metadataCodecId(codec: VideoCodec, form: HevcOutputForm): number {
  if (codec === 'avc') return CODEC_ID.Avc;
  return form === 'enhanced' ? FOURCC.hvc1 : CODEC_ID.Hevc;
}
