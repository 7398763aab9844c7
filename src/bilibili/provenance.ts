// Provenance of an offered stream: the streamer's origin, the CDN's re-encode ("原画" _bluray) or a transcode, from URL and playlist facts.

/** origin: the streamer's own stream; reencode: the CDN's copy at qn 10000; transcode: a lower or other-codec rendition. */
export type SourceKind = 'origin' | 'reencode' | 'transcode' | 'unknown';

export interface StreamProvenance {
  kind: SourceKind;
  /** The qn the stream is served at (BILI-QN or the URL's `qn=`), 0 when unknown. */
  qn: number;
  /** Video codec: avc, hevc, av1, or '' when unknown. */
  codec: string;
  /** The variant's own bitrate (master playlist BANDWIDTH, bit/s), 0 when unknown. */
  bitrate: number;
  /** The source's bitrate (`origin_bitrate`, bit/s; the same on every variant), 0 when absent. */
  originBitrate: number;
  /** The stream name (`live_<uid>_<n>[_suffix]`), '' when the URL has none. */
  streamName: string;
  /** The variant suffix ('' = none), from the stream name or else the `suffix=` query. */
  suffix: string;
  /** Each fact the verdict rests on, in words (`name suffix _bluray`, `suffix=bluray`, `BILI-QN=10000`). */
  evidence: string[];
}

/** What a master playlist's `#EXT-X-STREAM-INF` says about a variant (all optional). */
export interface MasterVariantAttributes {
  'BILI-QN'?: string | number;
  CODECS?: string;
  'BILI-DISPLAY'?: string;
  BANDWIDTH?: string | number;
}

export interface OfferFacts {
  url: string;
  /** The play-info codec name (avc, hevc, av1) when known. */
  codec?: string;
  /** The play-info current_qn when known. */
  qn?: number;
  master?: MasterVariantAttributes;
}

/** qn 25000 "原画真彩": the service's own name for the untouched original (bilibili-2026.md). */
export const ORIGIN_QN = 25000;

/** Known variant suffixes and what they are (captures in test/fixtures/bili-real, docs/bilibili-2026.md). */
function kindOfSuffix(suffix: string): SourceKind {
  if (suffix === '' || suffix === 'origin') return 'origin';
  if (suffix === 'bluray') return 'reencode';
  if (suffix === 'minihevc' || /^\d{3,4}$/.test(suffix)) return 'transcode';
  return 'unknown'; // prohevc, studio, maxhdr, new encrypted names: not guessed
}

const NAME = /^(live_[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*?)(?:\.flv|\.m3u8)?$/;
/** A trailing token that names a variant rather than a stream id (ids are 6+ digits). */
const SUFFIX_TOKEN = /_(bluray|minihevc|prohevc|studio|maxhdr|origin|\d{3,4})$/;

/** live_<uid>_<n> or live_<room>_bs_<n>: names whose every token is known. */
const CLASSIC_NAME = /^live_\d+_(?:bs_)?\d+$/;

/** `live_1_2_bluray` from `/live-bvc/1/live_1_2_bluray.flv` or `/live-bvc/1/live_1_2_bluray/index.m3u8`. */
export function streamNameOf(url: string): string {
  let path: string;
  try {
    path = new URL(url, 'http://x').pathname;
  } catch {
    return '';
  }
  const parts = path.split('/').filter(Boolean);
  const last = parts[parts.length - 1] ?? '';
  const seg = last === 'index.m3u8' ? parts[parts.length - 2] ?? '' : last;
  const m = NAME.exec(seg);
  return m ? m[1]! : '';
}

function codecOf(codecs: string | undefined, fallback: string | undefined): string {
  const c = (codecs ?? '').toLowerCase();
  if (/(^|,)\s*avc1/.test(c)) return 'avc';
  if (/(^|,)\s*(hvc1|hev1)/.test(c)) return 'hevc';
  if (/(^|,)\s*av01/.test(c)) return 'av1';
  return fallback === 'avc' || fallback === 'hevc' || fallback === 'av1' ? fallback : '';
}

const positive = (v: unknown): number => {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/**
 * Classifies one offered stream. Evidence in order of weight: the stream name's suffix, the `suffix=` query, the
 * qn (25000 is the origin by definition), master-playlist attributes. Conflicting or unknown signs give `unknown`.
 */
export function classifyStream(facts: OfferFacts): StreamProvenance {
  let query = new URLSearchParams();
  try {
    query = new URL(facts.url, 'http://x').searchParams;
  } catch {
    /* an unparsable URL leaves only the play-info facts */
  }
  const evidence: string[] = [];
  const streamName = streamNameOf(facts.url);
  // A name without a suffix token counts only in the classic numeric form: an encrypted name may hide its suffix.
  const token = streamName ? SUFFIX_TOKEN.exec(streamName)?.[1] ?? '' : '';
  const nameSuffix = token !== '' ? token : CLASSIC_NAME.test(streamName) ? '' : null;
  const querySuffix = query.has('suffix') ? query.get('suffix')! : null;
  const master = facts.master ?? {};
  const sid = query.get('sid_l');
  const qn = positive(master['BILI-QN']) || positive(query.get('qn')) || positive(facts.qn);
  const out: StreamProvenance = {
    kind: 'unknown', qn, codec: codecOf(master.CODECS, facts.codec), bitrate: positive(master.BANDWIDTH),
    originBitrate: positive(query.get('origin_bitrate')), streamName, suffix: nameSuffix || querySuffix || (sid ? SUFFIX_TOKEN.exec(sid)?.[1] ?? '' : ''), evidence,
  };
  // Strong signs name the variant; a name without a suffix is weak (fMP4 paths of a _bluray variant lack it,
  // see urls/biliup_…_suffix_bluray.txt) and counts only when nothing strong speaks.
  const votes: SourceKind[] = [];
  let weak: SourceKind | null = null;
  if (nameSuffix) {
    evidence.push(`name suffix _${nameSuffix}`);
    votes.push(kindOfSuffix(nameSuffix));
  } else if (nameSuffix === '') {
    evidence.push('name without suffix');
    weak = 'origin';
  }
  const sidSuffix = sid ? SUFFIX_TOKEN.exec(sid)?.[1] : undefined;
  if (sidSuffix && sidSuffix !== nameSuffix) {
    evidence.push(`sid_l suffix _${sidSuffix}`);
    votes.push(kindOfSuffix(sidSuffix));
  }
  if (querySuffix !== null) {
    evidence.push(`suffix=${querySuffix}`);
    votes.push(querySuffix === '' ? 'unknown' : kindOfSuffix(querySuffix));
  }
  if (qn === ORIGIN_QN) {
    evidence.push(`qn ${qn}`);
    votes.push('origin');
  } else if (qn > 0) {
    evidence.push(`qn ${qn}`);
    // Below 10000 is a lower rendition whatever the name says; 10000 fits the origin and the re-encode alike.
    if (qn < 10000) votes.push('transcode');
  }
  if (master['BILI-QN'] !== undefined) evidence.push(`BILI-QN=${master['BILI-QN']}`);
  if (master['BILI-DISPLAY'] !== undefined) evidence.push(`BILI-DISPLAY=${master['BILI-DISPLAY']}`);
  if (master.CODECS !== undefined) evidence.push(`CODECS=${master.CODECS}`);
  if (out.originBitrate > 0) evidence.push(`origin_bitrate ${out.originBitrate}`);
  if (votes.length === 0 && weak) votes.push(weak);
  if (votes.length === 0 || votes.includes('unknown')) return out;
  const distinct = new Set(votes);
  if (distinct.size > 1) {
    evidence.push(`conflict: ${[...distinct].join(' vs ')}`);
    return out;
  }
  out.kind = votes[0]!;
  return out;
}

/** The short form the labels use: `origin (qn 10000, avc; name without suffix, suffix=…)`. */
export function describeProvenance(p: StreamProvenance): string {
  const parts = [p.qn ? `qn ${p.qn}` : '', p.codec].filter(Boolean).join(', ');
  return `${p.kind}${parts ? ` (${parts})` : ''}${p.evidence.length ? `; ${p.evidence.join(', ')}` : ''}`;
}

/** Parses the `#EXT-X-STREAM-INF` attribute list (quoted values may hold commas). */
export function parseStreamInf(line: string): MasterVariantAttributes & Record<string, string> {
  const out: Record<string, string> = {};
  const body = line.replace(/^#EXT-X-STREAM-INF:/, '');
  const re = /([A-Z0-9-]+)=("[^"]*"|[^,]*)/g;
  for (let m = re.exec(body); m; m = re.exec(body)) out[m[1]!] = m[2]!.replace(/^"|"$/g, '');
  return out;
}

/** Every variant of a master playlist, classified (each `#EXT-X-STREAM-INF` with the URI line after it). */
export function classifyMasterPlaylist(text: string): StreamProvenance[] {
  const lines = text.split(/\r?\n/);
  const out: StreamProvenance[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('#EXT-X-STREAM-INF:')) continue;
    const uri = lines.slice(i + 1).find((l) => l.trim() !== '' && !l.startsWith('#'));
    if (uri) out.push(classifyStream({ url: uri.trim(), master: parseStreamInf(lines[i]!) }));
  }
  return out;
}
