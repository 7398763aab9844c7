// Reads a brec danmaku XML (<d p="seconds,mode,size,color,…">text</d>) into time-ordered comments for the overlay.

export interface Comment { t: number; text: string; color: string }

export function parseDanmakuXml(xml: string): Comment[] {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) return [];
  const out: Comment[] = [];
  for (const d of Array.from(doc.getElementsByTagName('d'))) {
    const p = (d.getAttribute('p') ?? '').split(',');
    const t = Number(p[0]);
    if (!Number.isFinite(t)) continue;
    const rgb = Number(p[3]);
    out.push({ t, text: d.textContent ?? '', color: Number.isFinite(rgb) ? `#${(rgb & 0xffffff).toString(16).padStart(6, '0')}` : '#ffffff' });
  }
  return out.sort((a, b) => a.t - b.t);
}

/** The comments on screen at `now` (each crosses the video in `span` seconds), at most `max`. */
export function visibleAt(comments: Comment[], now: number, span = 6, max = 12): Comment[] {
  let lo = 0;
  let hi = comments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comments[mid].t < now - span) lo = mid + 1;
    else hi = mid;
  }
  const out: Comment[] = [];
  for (let i = lo; i < comments.length && comments[i].t <= now && out.length < max; i++) out.push(comments[i]);
  return out;
}
