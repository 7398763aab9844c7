// Quality numbers (qn): parsing the RecordingQuality priority list and choosing one from a stream's accept_qn.
import { BiliErrorCode, BilibiliError } from './errors.js';

export const QN_NAMES: Readonly<Record<number, string>> = {
  30000: '杜比', 20000: '4K', 10000: '原画', 401: '蓝光(杜比)', 400: '蓝光', 250: '超清', 150: '高清', 80: '流畅', [-1]: '录播姬脚本',
};

/** "10000, 400，250、150" → [10000, 400, 250, 150]; anything that is not a positive integer is dropped. */
export function parseQualityList(text: string): number[] {
  const out: number[] = [];
  for (const part of text.split(/[,，、\s]+/)) {
    if (!/^\d+$/.test(part)) continue;
    const n = Number(part);
    if (n > 0 && !out.includes(n)) out.push(n);
  }
  return out;
}

/** The first wanted qn the stream offers; NO_MATCHING_QN when none is. An empty wish list means 10000. */
export function chooseQn(acceptQn: readonly number[], wanted: readonly number[]): number {
  const list = wanted.length > 0 ? wanted : [10000];
  for (const qn of list) if (acceptQn.includes(qn)) return qn;
  throw new BilibiliError(
    BiliErrorCode.NoMatchingQn,
    `None of the wanted qualities [${list.join(', ')}] is offered (accept_qn [${acceptQn.join(', ')}])`,
  );
}
