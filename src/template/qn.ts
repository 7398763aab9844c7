// Display names of Bilibili stream quality numbers (brec's format_qn filter).

const QN_NAMES: Record<number, string> = {
  30000: '杜比', 25000: '原画真彩', 20000: '4K', 15000: '2K', 10000: '原画', 401: '蓝光(杜比)', 400: '蓝光', 250: '超清', 150: '高清', 80: '流畅', [-1]: '录播姬脚本',
};

export function formatQn(qn: unknown): string {
  const n = typeof qn === 'number' ? qn : typeof qn === 'string' && qn.trim() !== '' ? Number(qn) : Number.NaN;
  return QN_NAMES[n] ?? `未知(${String(qn)})`;
}
