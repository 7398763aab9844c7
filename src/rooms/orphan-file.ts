// Closes a file whose worker died mid-write: walks tag headers, cuts a torn trailing tag, reports size and duration.
import { closeSync, fstatSync, ftruncateSync, openSync, readSync } from 'node:fs';
import { type FlvContentFacts, rewriteFlvMetadata } from '../flv/writer/metadata-rewrite.js';

export interface FinalizedFile {
  size: number;
  /** Seconds, from the last audio/video tag's timestamp. */
  duration: number;
  truncatedBytes: number;
  /** The file's own duration/size metadata was rewritten to match (FLV onMetaData, MP4 mvhd/mehd). */
  metadata?: boolean;
  /** The file held no whole header and was removed. */
  removed?: boolean;
}

/** An index entry per GOP that starts more than this long after the previous entry (the live writer's rule). */
const KEYFRAME_SPACING_MS = 1900;

/** True for a coded keyframe (not a sequence header), legacy or Enhanced FLV. */
function isKeyframe(b0: number, b1: number): boolean {
  if (b0 & 0x80) return ((b0 >> 4) & 7) === 1 && (b0 & 0x0f) !== 0; // Enhanced: packet type 0 is the sequence start
  return b0 >> 4 === 1 && b1 !== 0; // legacy AVC/HEVC: packet type 0 is the sequence header
}

/**
 * Makes an FLV file end on a tag boundary and rewrites its onMetaData (duration, size, frame rate, keyframe
 * index) to match. Only headers are read (bodies are skipped by offset), so even hours of recording take
 * milliseconds. Returns null when the file is missing or not FLV.
 */
export function finalizeOrphanFlv(path: string): FinalizedFile | null {
  return withOpenFile(path, (fd, size) => {
    const head = Buffer.alloc(13);
    if (readSync(fd, head, 0, 13, 0) < 13 || head.toString('latin1', 0, 3) !== 'FLV') return null;
    const tag = Buffer.alloc(13);
    const facts: FlvContentFacts = { size: 0, lastTs: 0, videoFrames: 0, firstVideoTs: 0, lastVideoTs: 0, keyframes: [] };
    let pos = 13;
    while (pos + 11 <= size && readSync(fd, tag, 0, 13, pos) >= 11) {
      const type = tag[0]!;
      const bodySize = tag.readUIntBE(1, 3);
      const end = pos + 11 + bodySize + 4;
      if (end > size || (type !== 8 && type !== 9 && type !== 18)) break;
      const ts = (tag.readUIntBE(4, 3) | (tag[7]! << 24)) | 0;
      if (type !== 18) facts.lastTs = ts;
      if (type === 9 && bodySize >= 2) {
        const header = tag[11]! & 0x80 ? (tag[11]! & 0x0f) === 0 : tag[12] === 0;
        if (!header) {
          if (facts.videoFrames++ === 0) facts.firstVideoTs = ts;
          facts.lastVideoTs = ts;
        }
        const last = facts.keyframes[facts.keyframes.length - 1];
        if (isKeyframe(tag[11]!, tag[12]!) && (!last || ts - last[0] > KEYFRAME_SPACING_MS)) facts.keyframes.push([ts, pos]);
      }
      pos = end;
    }
    if (pos < size) ftruncateSync(fd, pos);
    facts.size = pos;
    facts.lastTs = Math.max(0, facts.lastTs);
    let metadata = false;
    try {
      metadata = rewriteFlvMetadata(fd, facts);
    } catch {
      // The data is whole; only the header's numbers stay as they were.
    }
    return { size: pos, duration: facts.lastTs / 1000, truncatedBytes: size - pos, metadata };
  });
}

/** Runs `fn` on the file opened for update (closed afterwards); null when it cannot be opened. */
export function withOpenFile<T>(path: string, fn: (fd: number, size: number) => T | null): T | null {
  let fd: number;
  try {
    fd = openSync(path, 'r+');
  } catch {
    return null;
  }
  try {
    return fn(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}
