// Test-side AV1-in-MPEG-TS reader, independent of src/: PMT signalling, AV1 access units as IVF, for ffmpeg's libaom decoder.
// Written from the AOM spec (https://aomediacodec.github.io/av1-mpeg2-ts) and ISO/IEC 13818-1, not from liverec's readers.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { ffmpegBin } from './media-tools.js';

export interface Av1TsSignalling {
  streamType: number;
  /** format_identifier of the registration descriptor. */
  registration: string;
  /** The AV1 video descriptor's four bytes (tag 0x80), hex. */
  videoDescriptor: string;
  /** Its position in the ES_info loop relative to the registration descriptor (the spec puts registration first). */
  registrationFirst: boolean;
}

export interface Av1TsContent {
  signalling: Av1TsSignalling | null;
  /** One low-overhead temporal unit per PES (every OBU with obu_size), in file order. */
  units: { pts: number; data: Buffer; randomAccess: boolean }[];
  /** PES of the AV1 PID without a start code where one belongs, or with data_alignment_indicator 0. */
  malformed: number;
  /** Packets whose continuity counter skipped (per PID with payload). */
  ccErrors: number;
}

const leb128 = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
};

/** Removes emulation prevention bytes (0x03 after 0x0000). */
function unescape(b: Buffer): Buffer {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of b) {
    if (zeros >= 2 && byte === 0x03) {
      zeros = 0;
      continue;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

/** A ts_open_bitstream_unit payload (start code removed) as a low-overhead OBU: the size field added when absent. */
function toLowOverhead(obu: Buffer): Buffer {
  const header = obu[0]!;
  const headLen = header & 0x04 ? 2 : 1;
  if (header & 0x02) return obu;
  const payload = obu.subarray(headLen);
  return Buffer.concat([Buffer.from([header | 0x02]), obu.subarray(1, headLen), Buffer.from(leb128(payload.length)), payload]);
}

/** Splits an elementary-stream PES payload at 0x000001 start codes. */
function tsObus(es: Buffer): Buffer[] | null {
  const starts: number[] = [];
  for (let i = 0; i + 2 < es.length; i++) if (es[i] === 0 && es[i + 1] === 0 && es[i + 2] === 1) { starts.push(i); i += 2; }
  if (starts[0] !== 0) return null;
  return starts.map((s, k) => es.subarray(s + 3, starts[k + 1] ?? es.length));
}

export function readAv1Ts(file: Buffer): Av1TsContent {
  const pmtPids = new Set<number>();
  let av1Pid = -1;
  let signalling: Av1TsSignalling | null = null;
  const cc = new Map<number, number>();
  const out: Av1TsContent = { signalling: null, units: [], malformed: 0, ccErrors: 0 };
  let pes: { parts: Buffer[]; randomAccess: boolean } | null = null;
  const flush = (): void => {
    if (!pes) return;
    const b = Buffer.concat(pes.parts);
    const randomAccess = pes.randomAccess;
    pes = null;
    if (b.length < 9 || b.readUIntBE(0, 3) !== 1 || b[3] !== 0xbd || !(b[6]! & 0x04) || !(b[7]! & 0x80)) return void out.malformed++;
    const pts = ((b[9]! >> 1) & 7) * 2 ** 30 + (b.readUInt16BE(10) >> 1) * 2 ** 15 + (b.readUInt16BE(12) >> 1);
    const obus = tsObus(b.subarray(9 + b[8]!));
    if (!obus) return void out.malformed++;
    out.units.push({ pts, data: Buffer.concat(obus.map((o) => toLowOverhead(unescape(o)))), randomAccess });
  };
  for (let p = 0; p + 188 <= file.length; p += 188) {
    if (file[p] !== 0x47) throw new Error(`lost sync at ${p}`);
    const pid = ((file[p + 1]! & 0x1f) << 8) | file[p + 2]!;
    const start = (file[p + 1]! & 0x40) !== 0;
    const afc = (file[p + 3]! >> 4) & 3;
    if (afc & 1) {
      const want = cc.has(pid) ? (cc.get(pid)! + 1) & 0x0f : file[p + 3]! & 0x0f;
      if ((file[p + 3]! & 0x0f) !== want) out.ccErrors++;
      cc.set(pid, file[p + 3]! & 0x0f);
    }
    let s = p + 4;
    let randomAccess = false;
    if (afc & 2) {
      randomAccess = file[p + 4]! > 0 && (file[p + 5]! & 0x40) !== 0;
      s += 1 + file[p + 4]!;
    }
    if (!(afc & 1) || s >= p + 188) continue;
    const payload = file.subarray(s, p + 188);
    if (pid === 0 && start) {
      const sec = payload.subarray(1 + payload[0]!);
      const len = ((sec[1]! & 0x0f) << 8) | sec[2]!;
      for (let q = 8; q + 4 <= 3 + len - 4; q += 4) if (sec.readUInt16BE(q) !== 0) pmtPids.add(sec.readUInt16BE(q + 2) & 0x1fff);
    } else if (pmtPids.has(pid) && start) {
      const sec = payload.subarray(1 + payload[0]!);
      const end = 3 + (((sec[1]! & 0x0f) << 8) | sec[2]!) - 4;
      for (let q = 12 + (sec.readUInt16BE(10) & 0x0fff); q + 5 <= end;) {
        const type = sec[q]!;
        const esPid = sec.readUInt16BE(q + 1) & 0x1fff;
        const infoEnd = q + 5 + (sec.readUInt16BE(q + 3) & 0x0fff);
        let registration = '';
        let videoDescriptor = '';
        let order = 0;
        let regAt = -1;
        for (let d = q + 5; d + 2 <= infoEnd; d += 2 + sec[d + 1]!, order++) {
          if (sec[d] === 0x05) { registration = sec.subarray(d + 2, d + 6).toString('latin1'); regAt = order; }
          if (sec[d] === 0x80) videoDescriptor = sec.subarray(d + 2, d + 2 + sec[d + 1]!).toString('hex');
        }
        if (registration === 'AV01') {
          av1Pid = esPid;
          signalling ??= { streamType: type, registration, videoDescriptor, registrationFirst: regAt === 0 };
        }
        q = infoEnd;
      }
    } else if (pid === av1Pid) {
      if (start) {
        flush();
        pes = { parts: [], randomAccess };
      }
      pes?.parts.push(Buffer.from(payload));
    }
  }
  flush();
  out.signalling = signalling;
  return out;
}

/** An IVF file (the container aomdec and ffmpeg read AV1 from) of the temporal units, 90 kHz time base. */
export function ivf(units: readonly { pts: number; data: Buffer }[], width: number, height: number): Buffer {
  const head = Buffer.alloc(32);
  head.write('DKIF', 0, 'latin1');
  head.writeUInt16LE(0, 4);
  head.writeUInt16LE(32, 6);
  head.write('AV01', 8, 'latin1');
  head.writeUInt16LE(width, 12);
  head.writeUInt16LE(height, 14);
  head.writeUInt32LE(90_000, 16);
  head.writeUInt32LE(1, 20);
  head.writeUInt32LE(units.length, 24);
  const t0 = units[0]?.pts ?? 0;
  const frames = units.map((u) => {
    const h = Buffer.alloc(12);
    h.writeUInt32LE(u.data.length, 0);
    h.writeBigUInt64LE(BigInt(Math.max(0, u.pts - t0)), 4);
    return Buffer.concat([h, u.data]);
  });
  return Buffer.concat([head, ...frames]);
}

const run = (bin: string, args: string[]): Promise<string> =>
  new Promise((resolve) => execFile(bin, args, { maxBuffer: 16 << 20 }, (_e, _stdout, stderr) => resolve(stderr)));

/** Decodes the AV1 of a TS file with ffmpeg's libaom decoder (through an IVF written beside it): frames and errors. */
export async function decodeAv1Ts(path: string): Promise<{ frames: number; errors: string; keyframes: number; signalling: Av1TsSignalling | null; malformed: number }> {
  const content = readAv1Ts(readFileSync(path));
  const out = `${path}.ivf`;
  writeFileSync(out, ivf(content.units, 640, 360));
  const errors = (await run(ffmpegBin(), ['-v', 'error', '-c:v', 'libaom-av1', '-i', out, '-f', 'null', '-'])).trim();
  const stderr = await run(ffmpegBin(), ['-hide_banner', '-c:v', 'libaom-av1', '-i', out, '-f', 'null', '-']);
  const frames = Number([...stderr.matchAll(/frame=\s*(\d+)/g)].at(-1)?.[1] ?? 0);
  return { frames, errors, keyframes: content.units.filter((u) => u.randomAccess).length, signalling: content.signalling, malformed: content.malformed + content.ccErrors };
}
