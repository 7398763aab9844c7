// A lossless clip of an FLV recording as FLV: header, the sequence headers, then the cut's tags with times from 0.
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { LiverecError } from '../errors.js';
import { FileReader } from '../post/remux/file-reader.js';
import { writeAll } from '../post/remux/write-all.js';
import type { ClipCut } from './clip-window.js';

const FLUSH_BYTES = 1 << 20;

export interface ClipFlvReport {
  output: string;
  /** Media tags written (sequence headers not counted). */
  tags: number;
  /** The first media tag's time in the source (ms on its timeline) and the last written one's, in the clip. */
  durationMs: number;
}

/** Whether a video tag body (legacy or Enhanced FLV) is a sequence header, and whether it is a keyframe. */
function videoKind(b: Buffer, p: number): { config: boolean; key: boolean } {
  const b0 = b[p]!;
  if (b0 & 0x80) return { config: (b0 & 0x0f) === 0, key: ((b0 >> 4) & 7) === 1 };
  return { config: b[p + 1] === 0, key: b0 >> 4 === 1 };
}

/**
 * Copies the tags of `cut` (see findCut: the same keyframe and end as the MP4) from `input` to `output`: the FLV
 * header, the first video and audio sequence headers at time 0, then each media tag at or after the keyframe and
 * before the end with its time moved back by the keyframe's. The script tag is left out: its duration and keyframe
 * index describe the whole recording.
 */
export function clipToFlv(input: string, output: string, cut: ClipCut): ClipFlvReport {
  const r = new FileReader(input);
  const fd = openSync(output, 'w');
  const parts: Buffer[] = [];
  let pending = 0;
  const put = (b: Buffer): void => {
    parts.push(b);
    pending += b.length;
    if (pending >= FLUSH_BYTES) flush();
  };
  const flush = (): void => {
    if (parts.length) writeAll(fd, Buffer.concat(parts));
    parts.length = 0;
    pending = 0;
  };
  let tags = 0;
  let lastMs = 0;
  try {
    const head = r.read(9);
    if (!head || head.toString('latin1', 0, 3) !== 'FLV') throw new LiverecError('CLIP_BAD_INPUT', `${input} is not an FLV file`);
    put(Buffer.concat([head.subarray(0, 5), Buffer.from([0, 0, 0, 9, 0, 0, 0, 0])]));
    r.skip(head.readUInt32BE(5) - 9 + 4);
    const seen = { video: false, audio: false };
    const originMs = cut.originS * 1000;
    let started = false;
    while (r.ensure(11)) {
      const b = r.bytes;
      const p = r.at;
      const type = b[p]! & 0x1f;
      const size = (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;
      const ts = ((b[p + 7]! << 24) | (b[p + 4]! << 16) | (b[p + 5]! << 8) | b[p + 6]!) >>> 0;
      if (type !== 8 && type !== 9 && type !== 18) break;
      if (!r.ensure(11 + size + 4)) break;
      const tag = r.bytes.subarray(r.at, r.at + 11 + size + 4);
      const ms = ts - originMs;
      if (type === 9 && size >= 2) {
        const k = videoKind(tag, 11);
        if (k.config) {
          if (!seen.video) put(retime(tag, 0));
          seen.video = true;
        } else if (!started && k.key && Math.abs(ms - cut.fromMs) < 0.5) started = true;
      } else if (type === 8 && size >= 2 && tag[11]! >> 4 === 10 && tag[12] === 0) {
        if (!seen.audio) put(retime(tag, 0));
        seen.audio = true;
        r.skip(11 + size + 4);
        continue;
      }
      if (ms >= cut.toMs + 10_000) break;
      const media = type !== 18 && !(type === 9 && videoKind(tag, 11).config);
      if (started && media && ms >= cut.fromMs - 0.5 && ms < cut.toMs) {
        const at = Math.max(0, Math.round(ms - cut.fromMs));
        put(retime(tag, at));
        tags++;
        lastMs = Math.max(lastMs, at);
      }
      r.skip(11 + size + 4);
    }
    if (tags === 0) throw new LiverecError('CLIP_EMPTY', `no tags between ${cut.fromMs} and ${cut.toMs} ms of ${input}`);
    flush();
    fsyncSync(fd);
  } finally {
    closeSync(fd);
    r.close();
  }
  return { output, tags, durationMs: lastMs };
}

/** A copy of a whole tag (header, body, back-pointer) with another timestamp. */
function retime(tag: Buffer, ms: number): Buffer {
  const out = Buffer.from(tag);
  out.writeUIntBE(ms & 0xffffff, 4, 3);
  out[7] = (ms >>> 24) & 0xff;
  return out;
}
