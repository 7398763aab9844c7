// The picture size of the video beside a danmaku file (.flv, .mp4 or .ts with H.264), read from its first bytes.
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { avcHeaderPictureSize, spsPictureSize } from '../flv/avc-sps.js';

export interface VideoSize {
  width: number;
  height: number;
  /** The video file it came from. */
  source: string;
}

const HEAD_BYTES = 4 * 1024 * 1024;
const EXTENSIONS = ['.flv', '.mp4', '.m4s', '.ts'];
type Size = { width: number; height: number } | null;

function readRange(path: string, fromEnd: boolean): Buffer {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, HEAD_BYTES);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, fromEnd ? size - length : 0);
    return buf;
  } finally {
    closeSync(fd);
  }
}

/** FLV: the first AVC sequence header tag. */
function flvSize(buf: Buffer): Size {
  let pos = buf.length >= 9 ? buf.readUInt32BE(5) + 4 : buf.length;
  while (pos + 11 <= buf.length) {
    const type = buf[pos]!;
    const size = buf.readUIntBE(pos + 1, 3);
    const body = buf.subarray(pos + 11, pos + 11 + size);
    if (type === 9 && body.length > 2 && (body[0]! & 0x0f) === 7 && body[1] === 0) return avcHeaderPictureSize(body);
    pos += 11 + size + 4;
  }
  return null;
}

/** MP4: the avcC box (an AVCDecoderConfigurationRecord), given the 5-byte FLV prefix the SPS reader expects. */
function mp4Size(buf: Buffer): Size {
  const at = buf.indexOf('avcC');
  return at < 0 ? null : avcHeaderPictureSize(Buffer.concat([Buffer.alloc(5), buf.subarray(at + 4)]));
}

/** MPEG-TS (or any Annex B stream): the first SPS NAL unit after a start code. */
function annexBSize(buf: Buffer): Size {
  for (let at = buf.indexOf(Buffer.from([0, 0, 1])); at >= 0; at = buf.indexOf(Buffer.from([0, 0, 1]), at + 3)) {
    if ((buf[at + 3]! & 0x1f) !== 7) continue;
    const size = spsPictureSize(buf.subarray(at + 3, at + 3 + 256));
    if (size) return size;
  }
  return null;
}

/** The sibling video of `xmlPath` (same base name) and its size, or null when none is found or readable. */
export function siblingVideoSize(xmlPath: string): VideoSize | null {
  const base = xmlPath.replace(/\.xml$/i, '');
  for (const ext of EXTENSIONS) {
    const source = base + ext;
    if (!existsSync(source)) continue;
    let size: Size = null;
    try {
      if (ext === '.flv') size = flvSize(readRange(source, false));
      else if (ext === '.ts') size = annexBSize(readRange(source, false));
      else size = mp4Size(readRange(source, false)) ?? mp4Size(readRange(source, true));
    } catch {
      size = null;
    }
    if (size) return { ...size, source };
  }
  return null;
}
