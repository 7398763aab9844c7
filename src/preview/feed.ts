// What the room's thread sends, per format, passed to a room's preview viewers: FLV tags, whole TS segments, fMP4
// fragments; each keeps what a joining viewer starts on (the head and the GOP so far, bounded).
import type { PreviewFormat } from '../rooms/protocol.js';
import type { FlvTagSplitter } from './flv-tags.js';
import { fragmentsOf, type Mp4KeyInfo } from './mp4-fragments.js';
import type { PreviewViewer } from './viewer.js';

/** The GOP kept for a joining viewer is dropped past this (it starts at the next keyframe instead). */
const GOP_CACHE_BYTES = 6 * 1024 * 1024;

export interface RoomPreview {
  viewers: Set<PreviewViewer>;
  /** The format the room's thread sends; null while off. */
  on: PreviewFormat | null;
  /** Turning on in flight (joins wait for it). */
  starting: Promise<PreviewFormat | null> | null;
  head: Uint8Array | null;
  /** The open file (full path) and its latest tag time (ms): where a live marker lands. */
  path: string | null;
  lastTs: number;
  gop: Uint8Array[];
  gopBytes: number;
  splitter: FlvTagSplitter;
  /** fMP4: the video tracks of the head (which fragments begin with a keyframe). */
  mp4: Mp4KeyInfo | null;
  linger: NodeJS.Timeout | null;
}

/** FLV bytes as appended: split into tags; the GOP from the last keyframe is kept. */
export function feedFlv(r: RoomPreview, bytes: Uint8Array): void {
  const tags = r.splitter.push(bytes);
  if (r.splitter.broken) {
    for (const v of [...r.viewers]) v.close('end');
    return;
  }
  // Viewers already started take every tag; waiting ones start at the first keyframe.
  for (const tag of tags) {
    if (tag.type !== 18) r.lastTs = tag.ts;
    if (tag.key) {
      r.gop = [];
      r.gopBytes = 0;
    }
    if (tag.key || (r.gop.length > 0 && r.gopBytes < GOP_CACHE_BYTES)) {
      r.gop.push(tag.bytes);
      r.gopBytes += tag.bytes.length;
    } else if (!tag.key && r.gopBytes >= GOP_CACHE_BYTES) {
      r.gop = [];
      r.gopBytes = 0;
    }
  }
  if (tags.length === 0) return;
  for (const v of r.viewers) {
    if (!v.started) {
      const k = r.head ? tags.findIndex((t) => t.key) : -1;
      if (k < 0) continue;
      v.start([r.head!]);
      for (const t of tags.slice(k)) v.send(t.bytes);
    } else {
      for (const t of tags) v.send(t.bytes);
    }
  }
}

/** A whole TS segment (it starts with PAT/PMT and, from the service, a keyframe): every viewer may start on it. */
export function feedTs(r: RoomPreview, bytes: Uint8Array): void {
  r.gop = bytes.length <= GOP_CACHE_BYTES ? [bytes] : [];
  r.gopBytes = bytes.length;
  for (const v of r.viewers) {
    if (v.started) v.send(bytes);
    else v.start([bytes]);
  }
}

/**
 * Whole fMP4 segments: kept from the last fragment that begins with a keyframe (a joining viewer gets the head and
 * those), passed on to started viewers; a waiting viewer starts with the head at the next such fragment.
 */
export function feedMp4(r: RoomPreview, bytes: Uint8Array): void {
  if (!r.head || !r.mp4) return; // no init section yet: nothing can be played
  for (const f of fragmentsOf(bytes, r.mp4)) {
    if (f.key) {
      r.gop = [];
      r.gopBytes = 0;
    }
    if ((f.key || r.gop.length > 0) && r.gopBytes + f.bytes.length <= GOP_CACHE_BYTES) {
      r.gop.push(f.bytes);
      r.gopBytes += f.bytes.length;
    } else if (!f.key) {
      r.gop = [];
      r.gopBytes = 0;
    }
    for (const v of r.viewers) {
      if (v.started) v.send(f.bytes);
      else if (f.key) {
        v.start([r.head]);
        v.send(f.bytes);
      }
    }
  }
}
