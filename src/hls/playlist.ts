// HLS playlist parsing (RFC 8216): media playlists (sequence, target duration, maps, discontinuities) and master variants.

export interface PlaylistSegment {
  /** Media sequence number (EXT-X-MEDIA-SEQUENCE + position). */
  seq: number;
  uri: string;
  /** EXTINF duration, seconds. */
  duration: number;
  /** EXTINF title; Bilibili puts `<size hex>|<crc32 hex>` there. */
  title: string;
  /** URI of the EXT-X-MAP in force for this segment ('' for none). */
  map: string;
  /** An EXT-X-DISCONTINUITY precedes this segment. */
  discontinuity: boolean;
  /**
   * Its Discontinuity Sequence Number (RFC 8216 §4.3.3.3: EXT-X-DISCONTINUITY-SEQUENCE, 0 without one, plus the
   * EXT-X-DISCONTINUITY tags up to and including its own). 0: nothing changed encoding since the stream began.
   */
  discontinuitySeq?: number;
  /** Bilibili's #EXT-BILI-AUX line before it, when there is one. */
  aux?: BiliAux;
}

/** `#EXT-BILI-AUX:<first frame PTS ms, hex>|K or N|<size hex>|<CRC-32 hex>` (2025+ fMP4 playlists). */
export interface BiliAux {
  ptsMs: number;
  /** K: the segment starts with a keyframe; N: it does not. */
  keyframe: boolean;
  size: number;
  crc32: number;
}

/** One #EXT-X-STREAM-INF of a master playlist, with the play-gateway's BILI-* attributes. */
export interface MasterVariant {
  uri: string;
  bandwidth: number;
  /** BILI-QN (0 when absent). */
  qn: number;
  /** CODECS, e.g. "avc1.640028,mp4a.40.2" ('' when absent). */
  codecs: string;
  /** BILI-DISPLAY, e.g. 原画. */
  display: string;
  resolution: string;
  /** PATHWAY-ID: the host (content-steering pathway) this variant is served from ('' when absent). */
  pathway: string;
}

/** #EXT-X-CONTENT-STEERING: the pathway in use and the play-gateway's host priority (BILI-PATHWAY-PRIORITY). */
export interface ContentSteering {
  serverUri: string;
  pathwayId: string;
  priority: string[];
}

export interface MediaPlaylist {
  kind: 'media';
  targetDuration: number;
  mediaSequence: number;
  segments: PlaylistSegment[];
  endList: boolean;
  /** Lines that did not parse (counted, never fatal). */
  anomalies: number;
}

export interface MasterPlaylist {
  kind: 'master';
  variants: MasterVariant[];
  steering: ContentSteering | null;
}

export type Playlist = MediaPlaylist | MasterPlaylist;

function attr(list: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|,)${name}=("([^"]*)"|[^,]*)`).exec(list);
  return m ? (m[2] ?? m[1]) : undefined;
}

/** Parses playlist text; throws only when it is not a playlist at all (no #EXTM3U). */
export function parsePlaylist(text: string): Playlist {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines[0] !== '#EXTM3U' && !lines[0]?.startsWith('#EXTM3U')) throw new Error('not an HLS playlist (no #EXTM3U)');
  if (lines.some((l) => l.startsWith('#EXT-X-STREAM-INF:'))) {
    const variants: MasterVariant[] = [];
    let steering: ContentSteering | null = null;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.startsWith('#EXT-X-CONTENT-STEERING:')) {
        const a = line.slice(24);
        steering = {
          serverUri: attr(a, 'SERVER-URI') ?? '', pathwayId: attr(a, 'PATHWAY-ID') ?? '',
          priority: (attr(a, 'BILI-PATHWAY-PRIORITY') ?? '').split(',').filter((h) => h !== ''),
        };
      }
      if (!line.startsWith('#EXT-X-STREAM-INF:')) continue;
      const a = line.slice(18);
      const uri = lines.slice(i + 1).find((l) => !l.startsWith('#'));
      if (uri) {
        variants.push({
          uri, bandwidth: Number(attr(a, 'BANDWIDTH') ?? 0) || 0, qn: Number(attr(a, 'BILI-QN') ?? 0) || 0, codecs: attr(a, 'CODECS') ?? '',
          display: attr(a, 'BILI-DISPLAY') ?? '', resolution: attr(a, 'RESOLUTION') ?? '', pathway: attr(a, 'PATHWAY-ID') ?? '',
        });
      }
    }
    return { kind: 'master', variants, steering };
  }
  const out: MediaPlaylist = { kind: 'media', targetDuration: 0, mediaSequence: 0, segments: [], endList: false, anomalies: 0 };
  let map = '';
  let pending: { duration: number; title: string } | null = null;
  let discontinuity = false;
  let discontinuitySeq = 0;
  let aux: BiliAux | undefined;
  const num = (s: string): number => {
    const n = Number(s);
    if (!Number.isFinite(n)) out.anomalies++;
    return Number.isFinite(n) ? n : 0;
  };
  for (const line of lines.slice(1)) {
    if (!line.startsWith('#')) {
      if (!pending) out.anomalies++;
      const seg: PlaylistSegment = {
        seq: out.mediaSequence + out.segments.length, uri: line, duration: pending?.duration ?? 0, title: pending?.title ?? '', map, discontinuity,
        discontinuitySeq,
      };
      if (aux) {
        seg.aux = aux;
        // The EXTINF title repeats size|CRC: a disagreement is the playlist's fault (AUX wins, see segmentCheck).
        const t = segmentCheck(seg.title);
        if (t && (t.size !== aux.size || t.crc32 !== aux.crc32)) out.anomalies++;
      }
      out.segments.push(seg);
      pending = null;
      discontinuity = false;
      aux = undefined;
      continue;
    }
    const colon = line.indexOf(':');
    const tag = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1);
    switch (tag) {
      case '#EXT-X-TARGETDURATION': out.targetDuration = num(value); break;
      case '#EXT-X-MEDIA-SEQUENCE': out.mediaSequence = num(value); break;
      case '#EXT-X-MAP': map = attr(value, 'URI') ?? ''; break;
      case '#EXT-X-DISCONTINUITY':
        discontinuity = true;
        discontinuitySeq++;
        break;
      case '#EXT-X-DISCONTINUITY-SEQUENCE': discontinuitySeq += num(value); break;
      case '#EXT-X-ENDLIST': out.endList = true; break;
      case '#EXT-BILI-AUX': {
        aux = parseBiliAux(value) ?? undefined;
        if (!aux) out.anomalies++;
        break;
      }
      case '#EXTINF': {
        const comma = value.indexOf(',');
        pending = { duration: num(comma < 0 ? value : value.slice(0, comma)), title: comma < 0 ? '' : value.slice(comma + 1) };
        break;
      }
      default: break; // other tags (VERSION, START, PROGRAM-DATE-TIME…) do not change what is recorded
    }
  }
  return out;
}

/** The value of an #EXT-BILI-AUX line (`97d350|K|7d1e3|fe1425ab`); null when it has another form. */
export function parseBiliAux(value: string): BiliAux | null {
  const m = /^([0-9a-fA-F]+)\|([KN])\|([0-9a-fA-F]+)\|([0-9a-fA-F]+)$/.exec(value.trim());
  return m ? { ptsMs: parseInt(m[1]!, 16), keyframe: m[2] === 'K', size: parseInt(m[3]!, 16), crc32: parseInt(m[4]!, 16) } : null;
}

/** The size and CRC-32 a segment must have: from its #EXT-BILI-AUX line, else from its EXTINF title; null when neither says. */
export function segmentExpect(seg: Pick<PlaylistSegment, 'title' | 'aux'>): { size: number; crc32: number } | null {
  return seg.aux ? { size: seg.aux.size, crc32: seg.aux.crc32 } : segmentCheck(seg.title);
}

/** `<size hex>|<crc32 hex>[|…]` from an EXTINF title, as Bilibili writes it; null when the title has another form. */
export function segmentCheck(title: string): { size: number; crc32: number } | null {
  const m = /^([0-9a-fA-F]+)\|([0-9a-fA-F]+)(?:\||$)/.exec(title);
  return m ? { size: parseInt(m[1]!, 16), crc32: parseInt(m[2]!, 16) } : null;
}
