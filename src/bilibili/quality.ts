// Quality tokens (brec 2.15): parsing RecordingQuality ("avc10000,hevc10000") and choosing a codec + qn from the offers.
import { BiliErrorCode, BilibiliError } from './errors.js';

export const QN_NAMES: Readonly<Record<number, string>> = {
  30000: '杜比', 20000: '4K', 10000: '原画', 401: '蓝光(杜比)', 400: '蓝光', 250: '超清', 150: '高清', 80: '流畅', [-1]: '录播姬脚本',
};

export type StreamCodec = 'avc' | 'hevc';

/** One RecordingQuality entry: a codec and a qn. */
export interface QualityToken {
  codec: StreamCodec;
  qn: number;
}

/** brec 2.15's default: original quality, H.264 first, then HEVC. */
export const DEFAULT_RECORDING_QUALITY = 'avc10000,hevc10000';

const TOKEN = /^(avc|hevc|h264|h265)?:?(\d+)$/i;

/**
 * "avc10000, hevc10000，400、HEVC:250" → [{avc,10000}, {hevc,10000}, {avc,400}, {hevc,250}]: an optional codec
 * prefix (avc, hevc; also h264/h265 and the older `HEVC:` form), then a positive qn; a bare qn means avc.
 * Separators `,` `，` `、` and spaces; anything else is dropped, repeats too.
 */
export function parseQualityTokens(text: string): QualityToken[] {
  const out: QualityToken[] = [];
  for (const part of text.split(/[,，、\s]+/)) {
    const m = TOKEN.exec(part);
    if (!m) continue;
    const prefix = (m[1] ?? 'avc').toLowerCase();
    const token: QualityToken = { codec: prefix === 'hevc' || prefix === 'h265' ? 'hevc' : 'avc', qn: Number(m[2]) };
    if (token.qn > 0 && !out.some((t) => t.codec === token.codec && t.qn === token.qn)) out.push(token);
  }
  return out;
}

/** The token text of a choice, as brec writes it: `avc10000`, `hevc10000`. */
export const tokenText = (t: QualityToken): string => `${t.codec}${t.qn}`;

/** The tokens of a RecordingQuality value; an empty or unreadable value means brec 2.15's default. */
export function qualityTokens(text: string | null | undefined): QualityToken[] {
  const list = parseQualityTokens(text ?? '');
  return list.length > 0 ? list : parseQualityTokens(DEFAULT_RECORDING_QUALITY);
}

/** The first token whose codec is offered with that qn in its accept_qn; NO_MATCHING_QN when none is. */
export function chooseQuality(offers: ReadonlyMap<StreamCodec, readonly number[]>, list: readonly QualityToken[]): QualityToken {
  for (const t of list) if (offers.get(t.codec)?.includes(t.qn)) return t;
  const offered = [...offers].map(([codec, qns]) => `${codec} [${qns.join(', ')}]`).join(', ') || 'nothing';
  throw new BilibiliError(
    BiliErrorCode.NoMatchingQn,
    `None of the wanted qualities [${list.map(tokenText).join(', ')}] is offered (offered: ${offered})`,
  );
}
