// Quality tokens (brec 2.15): parsing RecordingQuality ("avc10000,hevc10000") and choosing a codec + qn from the offers.
import { BiliErrorCode, BilibiliError } from './errors.js';

export const QN_NAMES: Readonly<Record<number, string>> = {
  30000: '杜比', 25000: '原画真彩', 15000: '2K', 20000: '4K', 10000: '原画', 401: '蓝光(杜比)', 400: '蓝光', 250: '超清', 150: '高清', 80: '流畅', [-1]: '录播姬脚本',
};

/** codec ids 0, 1, 2 of getRoomPlayInfo. */
export type StreamCodec = 'avc' | 'hevc' | 'av1';

/** One RecordingQuality entry: a codec and a qn. */
export interface QualityToken {
  codec: StreamCodec;
  qn: number;
}

/** brec 2.15's default: original quality, H.264 first, then HEVC. */
export const DEFAULT_RECORDING_QUALITY = 'avc10000,hevc10000';

const TOKEN = /^(avc|hevc|av1|h264|h265)?:?(\d+)$/i;

/**
 * "avc10000, hevc10000，400、HEVC:250" → [{avc,10000}, {hevc,10000}, {avc,400}, {hevc,250}]: an optional codec
 * prefix (avc, hevc, av1; also h264/h265 and the older `HEVC:` form), then a positive qn; a bare qn means avc.
 * Separators `,` `，` `、` and spaces; anything else is dropped, repeats too.
 */
export function parseQualityTokens(text: string): QualityToken[] {
  const out: QualityToken[] = [];
  for (const part of text.split(/[,，、\s]+/)) {
    const m = TOKEN.exec(part);
    if (!m) continue;
    const prefix = (m[1] ?? 'avc').toLowerCase();
    const token: QualityToken = { codec: prefix === 'hevc' || prefix === 'h265' ? 'hevc' : prefix === 'av1' ? 'av1' : 'avc', qn: Number(m[2]) };
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

/** 原画真彩, the true original: never listed in accept_qn, served when asked for where the codec offers 原画 (10000). */
export const TRUE_ORIGINAL_QN = 25000;

/** Whether a codec entry with this accept_qn can be asked for `qn` (25000 rides on 10000). */
export function offersQn(acceptQn: readonly number[] | undefined, qn: number): boolean {
  return !!acceptQn && (acceptQn.includes(qn) || (qn === TRUE_ORIGINAL_QN && acceptQn.includes(10000)));
}

/** The first token whose codec is offered with that qn in its accept_qn (or 25000 where 10000 is); NO_MATCHING_QN when none is. */
export function chooseQuality(offers: ReadonlyMap<StreamCodec, readonly number[]>, list: readonly QualityToken[]): QualityToken {
  for (const t of list) if (offersQn(offers.get(t.codec), t.qn)) return t;
  const offered = [...offers].map(([codec, qns]) => `${codec} [${qns.join(', ')}]`).join(', ') || 'nothing';
  throw new BilibiliError(
    BiliErrorCode.NoMatchingQn,
    `None of the wanted qualities [${list.map(tokenText).join(', ')}] is offered (offered: ${offered})`,
  );
}
