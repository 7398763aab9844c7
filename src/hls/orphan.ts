// Closes an HLS recording (.mp4 / .ts) whose worker died mid-write: cuts a torn tail, reports size and duration.
import { ftruncateSync, readSync } from 'node:fs';
import { type FinalizedFile, withOpenFile } from '../rooms/orphan-file.js';
import { parseInit, parseMoof } from './mp4-boxes.js';
import { patchMp4Duration } from './mp4-duration.js';
import { TS_PACKET, TsScanner } from './ts-packets.js';

const HEADER = 16;
const TAIL = 2 * 1024 * 1024;

function read(fd: number, position: number, length: number): Buffer {
  const b = Buffer.alloc(length);
  return b.subarray(0, readSync(fd, b, 0, length, position));
}

/** fMP4: keeps whole top-level boxes (a half-written segment is a free box + torn mdat: dropped); duration from the moofs. */
function finalizeMp4(fd: number, size: number): FinalizedFile | null {
  let pos = 0;
  let init: ReturnType<typeof parseInit> = null;
  let maxSec = 0;
  let moov: [number, number] | null = null;
  while (pos + 8 <= size) {
    const head = read(fd, pos, HEADER);
    let len = head.readUInt32BE(0);
    if (len === 1 && head.length >= 16) len = Number(head.readBigUInt64BE(8));
    const type = head.toString('latin1', 4, 8);
    if (len < 8 || pos + len > size || (pos === 0 && type !== 'ftyp')) break;
    if (type === 'moov' || type === 'moof') {
      const body = read(fd, pos, len);
      if (type === 'moov') {
        init = parseInit(body);
        moov = [pos, len];
      }
      else {
        for (const r of parseMoof(body, { type, start: 0, body: 8, end: body.length }, init)) {
          const scale = init?.tracks.find((t) => t.trackId === r.trackId)?.timescale || 1000;
          maxSec = Math.max(maxSec, (r.baseDecodeTime + r.duration) / scale);
        }
      }
    }
    pos += len;
  }
  if (pos === 0) return null;
  if (pos < size) ftruncateSync(fd, pos);
  let metadata = false;
  try {
    metadata = moov !== null && patchMp4Duration(fd, moov[0], moov[1], maxSec);
  } catch {
    // The fragments are whole; only the header's duration stays as it was.
  }
  return { size: pos, duration: maxSec, truncatedBytes: size - pos, metadata };
}

/** TS: whole packets only; duration from the first and last decode times (head and tail of the file). */
function finalizeTs(fd: number, size: number): FinalizedFile | null {
  const whole = size - (size % TS_PACKET);
  if (read(fd, 0, 1)[0] !== 0x47) return null;
  if (whole < size) ftruncateSync(fd, whole);
  const head = new TsScanner();
  head.push(read(fd, 0, Math.min(whole, TAIL)));
  const tail = new TsScanner();
  const start = Math.max(0, whole - TAIL);
  tail.push(read(fd, start - (start % TS_PACKET), whole - (start - (start % TS_PACKET))));
  const first = head.video.first ?? head.audio.first;
  const last = tail.video.last ?? tail.audio.last;
  return { size: whole, duration: first !== null && last !== null ? Math.max(0, last - first) / 90_000 : 0, truncatedBytes: size - whole };
}

/** Returns null when the file is missing or neither an fMP4 nor a TS recording. */
export function finalizeOrphanHls(path: string): FinalizedFile | null {
  const ext = path.slice(path.lastIndexOf('.')).toLowerCase();
  if (ext !== '.mp4' && ext !== '.ts') return null;
  return withOpenFile(path, (fd, size) => (ext === '.mp4' ? finalizeMp4(fd, size) : finalizeTs(fd, size)));
}
