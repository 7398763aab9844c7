// NAL unit type and filler type of a video body's codec, for the shared length-prefixed NALU walks.
import { hevcNalType, HEVC_NAL } from './hevc.js';
import { isHevcBody } from './video-format.js';

/** H.264 filler data (nal_unit_type 12). */
export const AVC_FILLER = 12;

/** nal_unit_type of the NAL header byte `byte`, for AVC (5 bits) or HEVC (6 bits after the forbidden bit). */
export const nalType = (hevc: boolean, byte: number): number => (hevc ? hevcNalType(byte) : byte & 0x1f);

export const fillerType = (hevc: boolean): number => (hevc ? HEVC_NAL.FillerData : AVC_FILLER);

/** Whether a body (internal legacy layout) carries HEVC NAL units; null bodies (XML input) count as AVC. */
export const hevcNalus = (body: Uint8Array | null): boolean => isHevcBody(body);
