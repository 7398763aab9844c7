// RecordingProtocol: the ordered list of stream formats a room may record (flv, hls-fmp4, hls-ts) and where each lives in play info.

/** A recordable stream format: http_stream/flv, http_hls/fmp4, http_hls/ts. */
export type StreamFormat = 'flv' | 'fmp4' | 'ts';

export const DEFAULT_RECORDING_PROTOCOL = 'flv,hls-fmp4,hls-ts';

const TOKENS: Readonly<Record<string, StreamFormat>> = { flv: 'flv', 'hls-fmp4': 'fmp4', fmp4: 'fmp4', 'hls-ts': 'ts', ts: 'ts' };

/** The play-info protocol that carries a format. */
export const protocolOf = (format: StreamFormat): string => (format === 'flv' ? 'http_stream' : 'http_hls');

/** The RecordingProtocol token of a format (for logs). */
export const tokenOf = (format: StreamFormat): string => (format === 'flv' ? 'flv' : `hls-${format}`);

/** "flv, hls-fmp4，hls-ts" → ['flv', 'fmp4', 'ts']; unknown tokens are dropped, an empty result means the default. */
export function parseRecordingProtocol(text: string | null | undefined): StreamFormat[] {
  const out: StreamFormat[] = [];
  for (const part of (text ?? '').toLowerCase().split(/[,，、\s]+/)) {
    const f = TOKENS[part];
    if (f && !out.includes(f)) out.push(f);
  }
  return out.length > 0 ? out : parseRecordingProtocol(DEFAULT_RECORDING_PROTOCOL);
}

/** Error text of a RecordingProtocol value, or null when every token is known. */
export function checkRecordingProtocol(text: string): string | null {
  const bad = text.toLowerCase().split(/[,，、\s]+/).filter((p) => p !== '' && !(p in TOKENS));
  return bad.length > 0 ? `unknown protocol ${bad.join(', ')} (use flv, hls-fmp4, hls-ts)` : null;
}
