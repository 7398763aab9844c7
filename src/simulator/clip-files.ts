// Names of the committed simulator clips: two resolutions per codec, so a header change switches SPS and size.
export const CLIP_FILES = ['clip-360p.flv', 'clip-480p.flv'] as const;
/** The same two sizes as HEVC in Bilibili's codec-12 FLV, served on `_prohevc` URLs. */
export const HEVC_CLIP_FILES = ['clip-360p-hevc.flv', 'clip-480p-hevc.flv'] as const;
