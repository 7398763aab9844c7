// WebSocket frame layout (RFC 6455): client frames (masked), header reading, unmasking.
import { randomBytes } from 'node:crypto';

export interface FrameHeader {
  fin: boolean;
  opcode: number;
  length: number;
  /** Offset of the payload from the frame start. */
  payloadAt: number;
  mask: Buffer | null;
}

/** The header at the start of `buf`; a number = bytes needed to read it, a string = a protocol error. */
export function readFrameHeader(buf: Buffer): FrameHeader | number | string {
  if (buf.length < 2) return 2;
  const fin = (buf[0]! & 0x80) !== 0;
  const opcode = buf[0]! & 0x0f;
  const masked = (buf[1]! & 0x80) !== 0;
  let length = buf[1]! & 0x7f;
  let at = 2;
  if (length === 126) {
    if (buf.length < 4) return 4;
    length = buf.readUInt16BE(2);
    at = 4;
  } else if (length === 127) {
    if (buf.length < 10) return 10;
    if (buf.readUInt32BE(2) !== 0) return 'frame too large';
    length = buf.readUInt32BE(6);
    at = 10;
  }
  if (!masked) return { fin, opcode, length, payloadAt: at, mask: null };
  if (buf.length < at + 4) return at + 4;
  return { fin, opcode, length, payloadAt: at + 4, mask: buf.subarray(at, at + 4) };
}

/** A client frame (FIN set, always masked as RFC 6455 requires of clients). */
export function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const ext = len < 126 ? 0 : len < 65536 ? 2 : 8;
  const out = Buffer.allocUnsafe(2 + ext + 4 + len);
  out[0] = 0x80 | opcode;
  if (ext === 0) out[1] = 0x80 | len;
  else if (ext === 2) {
    out[1] = 0x80 | 126;
    out.writeUInt16BE(len, 2);
  } else {
    out[1] = 0x80 | 127;
    out.writeUInt32BE(0, 2);
    out.writeUInt32BE(len, 6);
  }
  const maskAt = 2 + ext;
  randomBytes(4).copy(out, maskAt);
  for (let i = 0; i < len; i++) out[maskAt + 4 + i] = payload[i]! ^ out[maskAt + (i & 3)]!;
  return out;
}

export function applyMask(data: Buffer, mask: Buffer): Buffer {
  const out = Buffer.allocUnsafe(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i]! ^ mask[i & 3]!;
  return out;
}
