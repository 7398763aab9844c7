// RecordAvoidHosts: stream hosts passed over while another is offered (PCDN hosts stall often: anti-AD #1121, bili_danmu's "no mcdn").

/**
 * Default: the PCDN host families of peers-2026-11.md (`*.mcdn.bilivideo.cn/com`, `szbdyd.com`,
 * `edge.mountaintoys.cn`), which serve on odd ports and stall often. One regular expression per line (or space).
 */
export const DEFAULT_RECORD_AVOID_HOSTS = String.raw`\.mcdn\.bilivideo\.(cn|com)\b` + '\n' + String.raw`(^|[./])szbdyd\.com\b` + '\n' + String.raw`(^|[./])edge\.mountaintoys\.cn\b`;

/** The patterns of a RecordAvoidHosts value (case-insensitive); `bad` lists the ones that are not regular expressions. */
export function parseAvoidHosts(text: string | null | undefined): { patterns: RegExp[]; bad: string[] } {
  const patterns: RegExp[] = [];
  const bad: string[] = [];
  for (const part of (text ?? DEFAULT_RECORD_AVOID_HOSTS).split(/\s+/)) {
    if (part === '') continue;
    try {
      patterns.push(new RegExp(part, 'i'));
    } catch {
      bad.push(part);
    }
  }
  return { patterns, bad };
}

/** Whether a host (scheme://host[:port]) matches one of the patterns. */
export function avoided(host: string, patterns: readonly RegExp[]): boolean {
  return patterns.some((p) => p.test(host));
}
