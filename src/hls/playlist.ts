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
  variants: { uri: string; bandwidth: number }[];
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
    const variants: MasterPlaylist['variants'] = [];
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.startsWith('#EXT-X-STREAM-INF:')) continue;
      const uri = lines.slice(i + 1).find((l) => !l.startsWith('#'));
      if (uri) variants.push({ uri, bandwidth: Number(attr(lines[i]!.slice(18), 'BANDWIDTH') ?? 0) || 0 });
    }
    return { kind: 'master', variants };
  }
  const out: MediaPlaylist = { kind: 'media', targetDuration: 0, mediaSequence: 0, segments: [], endList: false, anomalies: 0 };
  let map = '';
  let pending: { duration: number; title: string } | null = null;
  let discontinuity = false;
  const num = (s: string): number => {
    const n = Number(s);
    if (!Number.isFinite(n)) out.anomalies++;
    return Number.isFinite(n) ? n : 0;
  };
  for (const line of lines.slice(1)) {
    if (!line.startsWith('#')) {
      if (!pending) out.anomalies++;
      out.segments.push({
        seq: out.mediaSequence + out.segments.length, uri: line, duration: pending?.duration ?? 0, title: pending?.title ?? '', map, discontinuity,
      });
      pending = null;
      discontinuity = false;
      continue;
    }
    const colon = line.indexOf(':');
    const tag = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1);
    switch (tag) {
      case '#EXT-X-TARGETDURATION': out.targetDuration = num(value); break;
      case '#EXT-X-MEDIA-SEQUENCE': out.mediaSequence = num(value); break;
      case '#EXT-X-MAP': map = attr(value, 'URI') ?? ''; break;
      case '#EXT-X-DISCONTINUITY': discontinuity = true; break;
      case '#EXT-X-ENDLIST': out.endList = true; break;
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

/** `<size hex>|<crc32 hex>[|…]` from an EXTINF title, as Bilibili writes it; null when the title has another form. */
export function segmentCheck(title: string): { size: number; crc32: number } | null {
  const m = /^([0-9a-fA-F]+)\|([0-9a-fA-F]+)(?:\||$)/.exec(title);
  return m ? { size: parseInt(m[1]!, 16), crc32: parseInt(m[2]!, 16) } : null;
}
