// Names of the committed simulator clips: two resolutions, so a header change switches SPS and size.
export const CLIP_FILES = ['clip-360p.flv', 'clip-480p.flv'] as const;
