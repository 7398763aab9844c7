// Rewrites a closed FLV's onMetaData in place (duration, file size, frame rate, keyframe index) from what the file holds.
import { readSync, writeSync } from 'node:fs';
import { decodeAmf } from '../amf.js';
import { onMetaDataMap, type AmfMap } from '../metadata.js';
import { KEYFRAMES_PLACEHOLDER, MetadataLayout } from './metadata-layout.js';

/** What a walk over the file's tags found. */
export interface FlvContentFacts {
  /** Bytes of whole tags. */
  size: number;
  /** Timestamp (ms) of the last audio/video tag. */
  lastTs: number;
  videoFrames: number;
  firstVideoTs: number;
  lastVideoTs: number;
  /** Keyframe index entries as the live writer makes them: [time ms, byte offset of the tag]. */
  keyframes: [number, number][];
}

/** The writer's body starts at byte 24: the 13-byte file header, then the script tag's 11-byte header. */
const BODY_AT = 24;

/**
 * Patches the numbers and index the live writer keeps current, so players see the file's true length. Only a
 * body that re-encodes to exactly its own length is rewritten (a layout the writer made); anything else is left
 * alone. Returns true when the metadata was rewritten.
 */
export function rewriteFlvMetadata(fd: number, facts: FlvContentFacts): boolean {
  const head = Buffer.alloc(11);
  if (readSync(fd, head, 0, 11, 13) < 11 || head[0] !== 18) return false;
  const length = head.readUIntBE(1, 3);
  if (BODY_AT + length + 4 > facts.size) return false;
  const body = Buffer.alloc(length);
  if (readSync(fd, body, 0, length, BODY_AT) < length) return false;
  let map: AmfMap | null;
  try {
    map = onMetaDataMap(decodeAmf(body));
  } catch {
    return false;
  }
  if (!map) return false;
  const rebuilt: AmfMap = new Map();
  let capacity = 0;
  for (const [k, v] of map) {
    if (k === 'keyframes' && v.type === 'Object') {
      const count = (name: string): number => {
        const a = v.value.get(name);
        return a?.type === 'StrictArray' ? a.value.length : 0;
      };
      capacity = count('times') + count('spacer') / 2;
      rebuilt.set(k, KEYFRAMES_PLACEHOLDER);
    } else rebuilt.set(k, v);
  }
  const layout = new MetadataLayout(rebuilt, capacity);
  if (layout.body.length !== length) return false;
  layout.setNumber('duration', facts.lastTs / 1000);
  layout.setNumber('filesize', facts.size);
  if (facts.videoFrames > 1 && facts.lastVideoTs > facts.firstVideoTs) {
    const fps = ((facts.videoFrames - 1) * 1000) / (facts.lastVideoTs - facts.firstVideoTs);
    layout.setNumber('framerate', Math.round(fps * 1000) / 1000);
  }
  for (const [ms, at] of facts.keyframes) if (!layout.addKeyframe(ms, at)) break;
  layout.renderIndex();
  writeSync(fd, layout.body, 0, length, BODY_AT);
  return true;
}
