// The five damaged recordings of issue 46, made from the simulator's real clips: each what a CDN restart, a bad writer
// or a broken segmenter leaves, at a known offset, so a test can check the remux reports exactly that range.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { ffmpegBin } from '../../src/media/ffmpeg-bin.js';
import { longFlv } from './media.js';

export interface Tag { at: number; type: number; size: number; ts: number }

export function flvTags(b: Buffer): Tag[] {
  const out: Tag[] = [];
  for (let p = b.readUInt32BE(5) + 4; p + 11 <= b.length;) {
    const size = b.readUIntBE(p + 1, 3);
    out.push({ at: p, type: b[p]!, size, ts: ((b[p + 7]! << 24) | b.readUIntBE(p + 4, 3)) >>> 0 });
    p += 11 + size + 4;
  }
  return out;
}

/** The first video frame's tag (not an empty one) at or after the middle of the file. */
const middleTag = (b: Buffer): Tag => flvTags(b).find((t) => t.at >= b.length / 2 && t.type === 9 && t.size > 100)!;

/** 8 loops of the 360p clip (30.7 s): the undamaged recording the damage is done to. */
export function longClip(path: string, loops = 8, clip = 'clip-360p.flv'): Buffer {
  longFlv(clip, loops, path);
  return readFileSync(path);
}

/** Two whole FLV files back to back (a raw capture across a CDN restart): a second header mid-file, times from 0 again. */
export function secondHeader(tmp: string, out: string): { at: number } {
  const half = longClip(tmp, 4);
  writeFileSync(out, Buffer.concat([half, half]));
  return { at: half.length };
}

/** One stray byte between two tags in the middle. */
export function strayByte(tmp: string, out: string): { at: number } {
  const b = longClip(tmp);
  const at = middleTag(b).at;
  writeFileSync(out, Buffer.concat([b.subarray(0, at), Buffer.from([0x5a]), b.subarray(at)]));
  return { at };
}

/** A video tag in the middle whose size field claims every byte to the end of the file. */
export function swallowingTag(tmp: string, out: string): { at: number; bytes: number } {
  const b = Buffer.from(longClip(tmp));
  const t = middleTag(b);
  b.writeUIntBE(b.length - (t.at + 11) - 4, t.at + 1, 3);
  writeFileSync(out, b);
  return { at: t.at, bytes: 11 + t.size + 4 };
}

/** 15.4 s of the 360p clip, then 15.4 s of the 480p clip with its own sequence headers (a resolution change). */
export function headerChange(tmp: string, out: string): void {
  const a = longClip(tmp, 4);
  const last = flvTags(a).reduce((m, t) => Math.max(m, t.ts), 0) + 40;
  const b = Buffer.from(longClip(tmp, 4, 'clip-480p.flv'));
  for (const t of flvTags(b)) {
    const ts = t.ts + last;
    b.writeUIntBE(ts & 0xffffff, t.at + 4, 3);
    b[t.at + 7] = (ts >>> 24) & 0xff;
  }
  writeFileSync(out, Buffer.concat([a, b.subarray(b.readUInt32BE(5) + 4)]));
}

/** The long clip as MPEG-TS (ffmpeg -c copy), then payload_unit_start cleared on every video packet but the first. */
export function tsWithoutUnitStarts(tmp: string, clean: string, out: string): { videoPid: number; cleared: number } {
  longClip(tmp);
  execFileSync(ffmpegBin(), ['-v', 'error', '-y', '-i', tmp, '-c', 'copy', '-f', 'mpegts', clean]);
  const b = Buffer.from(readFileSync(clean));
  let videoPid = -1;
  let cleared = 0;
  for (let p = 0; p + 188 <= b.length; p += 188) {
    const pid = ((b[p + 1]! & 0x1f) << 8) | b[p + 2]!;
    const pusi = (b[p + 1]! & 0x40) !== 0;
    const s = b[p + 3]! & 0x20 ? p + 5 + b[p + 4]! : p + 4;
    if (videoPid < 0 && pusi && b[s] === 0 && b[s + 1] === 0 && b[s + 2] === 1 && b[s + 3] === 0xe0) {
      videoPid = pid;
      continue;
    }
    if (pid === videoPid && pusi) {
      b[p + 1] = b[p + 1]! & ~0x40;
      cleared++;
    }
  }
  writeFileSync(out, b);
  return { videoPid, cleared };
}

/** The long clip as fragmented MP4 (ffmpeg, a fragment per key frame), then a junk box spliced in between two fragments. */
export function fmp4WithJunk(tmp: string, clean: string, out: string): { at: number; bytes: number } {
  longClip(tmp);
  execFileSync(ffmpegBin(), ['-v', 'error', '-y', '-i', tmp, '-c', 'copy', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-f', 'mp4', clean]);
  const b = readFileSync(clean);
  let at = -1;
  for (let p = 0; p + 8 <= b.length; p += b.readUInt32BE(p)) {
    if (b.toString('latin1', p + 4, p + 8) === 'moof' && p >= b.length / 2) { at = p; break; }
  }
  // A box header whose size runs far past the end, then bytes that are no box at all.
  const junk = Buffer.alloc(600, 0xab);
  junk.writeUInt32BE(0x7fffff00, 0);
  junk.write('junk', 4, 'latin1');
  writeFileSync(out, Buffer.concat([b.subarray(0, at), junk, b.subarray(at)]));
  return { at, bytes: junk.length };
}
