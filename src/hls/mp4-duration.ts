// Writes a recovered fMP4's true length into its moov: mvhd duration and, where present, mvex/mehd fragment_duration.
import { readSync, writeSync } from 'node:fs';

/** Child boxes of a container body: [type, start, end] with start at the child's header. */
function children(buf: Buffer, from: number, to: number): [string, number, number][] {
  const out: [string, number, number][] = [];
  let p = from;
  while (p + 8 <= to) {
    const len = buf.readUInt32BE(p);
    if (len < 8 || p + len > to) break;
    out.push([buf.toString('latin1', p + 4, p + 8), p, p + len]);
    p += len;
  }
  return out;
}

/** Writes a duration field of `wide` (8 bytes) or 4 bytes; false when it does not fit a 32-bit field. */
function put(buf: Buffer, at: number, wide: boolean, value: number): boolean {
  if (wide) buf.writeBigUInt64BE(BigInt(value), at);
  else if (value <= 0xffffffff) buf.writeUInt32BE(value, at);
  else return false;
  return true;
}

/**
 * Sets mvhd's duration (in its timescale) and mehd's fragment duration to `seconds`, in place; the moov keeps its
 * length. Returns true when mvhd was found and written.
 */
export function patchMp4Duration(fd: number, moovAt: number, moovLength: number, seconds: number): boolean {
  const moov = Buffer.alloc(moovLength);
  if (readSync(fd, moov, 0, moovLength, moovAt) < moovLength) return false;
  const boxes = children(moov, 8, moovLength);
  const mvhd = boxes.find(([t]) => t === 'mvhd');
  if (!mvhd) return false;
  const v1 = moov[mvhd[1] + 8] === 1;
  const timescaleAt = mvhd[1] + 12 + (v1 ? 16 : 8);
  if (timescaleAt + 4 + (v1 ? 8 : 4) > mvhd[2]) return false;
  const timescale = moov.readUInt32BE(timescaleAt) || 1000;
  const duration = Math.round(seconds * timescale);
  if (!put(moov, timescaleAt + 4, v1, duration)) return false;
  const mvex = boxes.find(([t]) => t === 'mvex');
  const mehd = mvex ? children(moov, mvex[1] + 8, mvex[2]).find(([t]) => t === 'mehd') : undefined;
  if (mehd && mehd[1] + 12 + (moov[mehd[1] + 8] === 1 ? 8 : 4) <= mehd[2]) put(moov, mehd[1] + 12, moov[mehd[1] + 8] === 1, duration);
  writeSync(fd, moov, 0, moovLength, moovAt);
  return true;
}
