// MPEG-TS reading for HLS segments: 188-byte packets, PAT/PMT, PES timestamps and frame counts, streamed chunk by chunk.
import { identifyStream, registrationName, registrationOf, type TsKind, type TsUnknownStream } from './ts-stream-types.js';

export const TS_PACKET = 188;
const SYNC = 0x47;

/** 33-bit PTS/DTS at `p` (5 bytes). */
export function readTimestamp(b: Uint8Array, p: number): number {
  return (((b[p]! >> 1) & 0x07) * 2 ** 30) + (((b[p + 1]! << 7) | (b[p + 2]! >> 1)) * 2 ** 15) + ((b[p + 3]! << 7) | (b[p + 4]! >> 1));
}

/** Writes a 33-bit PTS/DTS at `p`, keeping the 4-bit prefix. */
export function writeTimestamp(b: Uint8Array, p: number, t: number): void {
  const v = ((t % 2 ** 33) + 2 ** 33) % 2 ** 33;
  const hi = Math.floor(v / 2 ** 30);
  const mid = Math.floor(v / 2 ** 15) & 0x7fff;
  const lo = v & 0x7fff;
  b[p] = (b[p]! & 0xf0) | (hi << 1) | 1;
  b[p + 1] = mid >> 7;
  b[p + 2] = ((mid & 0x7f) << 1) | 1;
  b[p + 3] = lo >> 7;
  b[p + 4] = ((lo & 0x7f) << 1) | 1;
}

/** Where a packet's payload starts (after the adaptation field), or -1 without payload. */
export function payloadStart(b: Uint8Array, p: number): number {
  const afc = (b[p + 3]! >> 4) & 0x03;
  if (!(afc & 0x01)) return -1;
  const start = afc & 0x02 ? p + 5 + b[p + 4]! : p + 4;
  return start < p + TS_PACKET ? start : -1;
}

/** PES header fields at the start of a payload: PTS and DTS (DTS = PTS when absent), or null. */
export function pesTimes(b: Uint8Array, s: number, end: number): { pts: number; dts: number } | null {
  if (s + 14 > end || b[s] !== 0 || b[s + 1] !== 0 || b[s + 2] !== 1) return null;
  const flags = b[s + 7]! >> 6;
  if (!(flags & 0x02)) return null;
  const pts = readTimestamp(b, s + 9);
  return { pts, dts: flags === 0x03 && s + 19 <= end ? readTimestamp(b, s + 14) : pts };
}

export type { TsKind, TsUnknownStream } from './ts-stream-types.js';

export interface TsTimes {
  /** First and last decode times (90 kHz, unwrapped) of video, else audio. */
  first: number | null;
  last: number | null;
}

/**
 * Reads a TS byte stream: finds the program's video and audio PIDs, counts PES packets (video frames) and ADTS
 * frames (audio), and follows decode times. Bytes that are not on a packet boundary are counted as anomalies.
 */
export class TsScanner {
  videoFrames = 0;
  audioFrames = 0;
  videoBytes = 0;
  audioBytes = 0;
  anomalies = 0;
  /** Decode times of this scanner's whole input (90 kHz, unwrapped against the previous value). */
  readonly video: TsTimes = { first: null, last: null };
  readonly audio: TsTimes = { first: null, last: null };
  codecs = new Set<string>();
  /** PMT entries of a kind the scanner does not read, by PID (reported once by the writer, never dropped from the file). */
  readonly unknown = new Map<number, TsUnknownStream>();
  /** The start of a packet cut by the end of the last chunk (reads do not end on packet boundaries). */
  private readonly carry = new Uint8Array(TS_PACKET);
  private carryLen = 0;
  private readonly pmtPids = new Set<number>();
  private readonly kinds = new Map<number, TsKind>();
  /** Bytes of the ADTS frame in progress still to skip, and a partial ADTS header. */
  private adtsSkip = 0;
  private adtsHead: number[] = [];

  /**
   * Completes a packet cut by the previous chunk in a 188-byte scratch, then scans the chunk where it lies: no copy
   * of the chunk (a copy per network read was most of the TS path's garbage).
   */
  push(chunk: Uint8Array): void {
    if (this.carryLen === 0) return this.scan(chunk, 0);
    if (this.carry[0] !== SYNC) {
      // Out of sync at the cut: search across the joined bytes, as for any other lost sync.
      const joined = new Uint8Array(this.carryLen + chunk.length);
      joined.set(this.carry.subarray(0, this.carryLen));
      joined.set(chunk, this.carryLen);
      this.carryLen = 0;
      return this.scan(joined, 0);
    }
    const need = TS_PACKET - this.carryLen;
    if (chunk.length < need) {
      this.carry.set(chunk, this.carryLen);
      this.carryLen += chunk.length;
      return;
    }
    this.carry.set(chunk.subarray(0, need), this.carryLen);
    this.carryLen = 0;
    this.packet(this.carry, 0);
    this.scan(chunk, need);
  }

  private scan(buf: Uint8Array, from: number): void {
    let p = from;
    while (p + TS_PACKET <= buf.length) {
      if (buf[p] !== SYNC) {
        this.anomalies++;
        const next = buf.indexOf(SYNC, p + 1);
        p = next < 0 ? buf.length : next;
        continue;
      }
      this.packet(buf, p);
      p += TS_PACKET;
    }
    this.carry.set(buf.subarray(p), 0);
    this.carryLen = buf.length - p;
  }

  /** True when the input ended on a packet boundary. */
  get aligned(): boolean {
    return this.carryLen === 0;
  }

  private packet(b: Uint8Array, p: number): void {
    const pid = ((b[p + 1]! & 0x1f) << 8) | b[p + 2]!;
    const pusi = (b[p + 1]! & 0x40) !== 0;
    const s = payloadStart(b, p);
    if (s < 0) return;
    const end = p + TS_PACKET;
    if (pid === 0 && pusi) return this.pat(b, s + 1 + b[s]!, end);
    if (this.pmtPids.has(pid) && pusi) return this.pmt(b, s + 1 + b[s]!, end);
    const kind = this.kinds.get(pid);
    if (!kind) return;
    let payload = s;
    if (pusi) {
      const t = pesTimes(b, s, end);
      if (kind === 'video') this.videoFrames++;
      if (t) this.time(kind === 'video' ? this.video : this.audio, t.dts);
      if (end - s >= 9) payload = Math.min(end, s + 9 + b[s + 8]!);
    }
    if (kind === 'video') this.videoBytes += end - payload;
    else {
      this.audioBytes += end - payload;
      if (pusi) {
        this.adtsSkip = 0; // every PES starts on a frame: resynchronise
        this.adtsHead = [];
      }
      this.adts(b, payload, end);
    }
  }

  private time(t: TsTimes, raw: number): void {
    let v = raw;
    if (t.last !== null) {
      // 33-bit wrap: take the value closest to the previous one.
      const wrap = 2 ** 33;
      while (v - t.last > wrap / 2) v -= wrap;
      while (t.last - v > wrap / 2) v += wrap;
    }
    t.first ??= v;
    if (t.last === null || v > t.last) t.last = v;
  }

  /** Walks ADTS frame headers across packets to count audio frames. */
  private adts(b: Uint8Array, start: number, end: number): void {
    let p = start;
    while (p < end) {
      if (this.adtsSkip > 0) {
        const n = Math.min(this.adtsSkip, end - p);
        this.adtsSkip -= n;
        p += n;
        continue;
      }
      this.adtsHead.push(b[p++]!);
      if (this.adtsHead.length < 6) continue;
      const h = this.adtsHead;
      this.adtsHead = [];
      if (h[0] !== 0xff || (h[1]! & 0xf0) !== 0xf0) continue; // not ADTS (MPEG audio, or lost sync): no count
      const length = ((h[3]! & 0x03) << 11) | (h[4]! << 3) | (h[5]! >> 5);
      this.audioFrames++;
      this.adtsSkip = Math.max(0, length - 6);
    }
  }

  private pat(b: Uint8Array, s: number, end: number): void {
    const sectionEnd = Math.min(end - 4, s + 3 + (((b[s + 1]! & 0x0f) << 8) | b[s + 2]!) - 4);
    for (let q = s + 8; q + 4 <= sectionEnd; q += 4) {
      const program = (b[q]! << 8) | b[q + 1]!;
      if (program !== 0) this.pmtPids.add(((b[q + 2]! & 0x1f) << 8) | b[q + 3]!);
    }
  }

  private pmt(b: Uint8Array, s: number, end: number): void {
    const sectionEnd = Math.min(end - 4, s + 3 + (((b[s + 1]! & 0x0f) << 8) | b[s + 2]!) - 4);
    let q = s + 12 + (((b[s + 10]! & 0x0f) << 8) | b[s + 11]!);
    while (q + 5 <= sectionEnd) {
      const type = b[q]!;
      const pid = ((b[q + 1]! & 0x1f) << 8) | b[q + 2]!;
      const infoEnd = Math.min(sectionEnd, q + 5 + (((b[q + 3]! & 0x0f) << 8) | b[q + 4]!));
      const known = identifyStream(type, registrationOf(b, q + 5, infoEnd));
      if (known) {
        this.kinds.set(pid, known.kind);
        this.codecs.add(known.codec);
      } else if (!this.unknown.has(pid)) this.unknown.set(pid, { pid, streamType: type, registration: registrationName(registrationOf(b, q + 5, infoEnd)) });
      q = infoEnd;
    }
  }
}
