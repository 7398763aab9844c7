// Danmaku packet framing: 16-byte big-endian header, body versions 0/1 plain, 2 zlib, 3 brotli (nested packets).
import { brotliDecompressSync, inflateSync } from 'node:zlib';

export const HEADER_SIZE = 16;

/**
 * Decompressed bytes allowed per received message, all its packets together (a real batch is a few KiB). A cap per
 * packet alone let one message of 300 packets just under it inflate to 2.4 GB.
 */
export const MAX_MESSAGE_OUTPUT = 8 * 1024 * 1024;

export const Op = { Heartbeat: 2, HeartbeatReply: 3, Command: 5, Auth: 7, AuthReply: 8 } as const;
export const Version = { Json: 0, Plain: 1, Zlib: 2, Brotli: 3 } as const;

export interface Packet {
  version: number;
  op: number;
  body: Buffer;
}

/** Recoverable problems found while decoding; counted, never thrown. */
export interface PacketAnomalies {
  /** A header that is cut, claims a length beyond the data, or a header length < 16. */
  truncated: number;
  /** A v2/v3 body that does not decompress. */
  badCompression: number;
}

export function newPacketAnomalies(): PacketAnomalies {
  return { truncated: 0, badCompression: 0 };
}

/** One client packet: clients write version 1 and sequence 1. */
export function encodePacket(op: number, body: Buffer | string = Buffer.alloc(0), version: number = Version.Plain): Buffer {
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const out = Buffer.allocUnsafe(HEADER_SIZE + payload.length);
  out.writeUInt32BE(out.length, 0);
  out.writeUInt16BE(HEADER_SIZE, 4);
  out.writeUInt16BE(version, 6);
  out.writeUInt32BE(op, 8);
  out.writeUInt32BE(1, 12);
  payload.copy(out, HEADER_SIZE);
  return out;
}

/**
 * All packets in one received message, with compressed bodies opened (their inner packets are returned in
 * place of the compressed one). A cut or bad packet is counted and the rest of that buffer skipped.
 */
export function decodePackets(buf: Buffer, anomalies: PacketAnomalies, depth = 0, budget = { left: MAX_MESSAGE_OUTPUT }): Packet[] {
  const out: Packet[] = [];
  let pos = 0;
  while (pos < buf.length) {
    if (buf.length - pos < HEADER_SIZE) {
      anomalies.truncated++;
      break;
    }
    const length = buf.readUInt32BE(pos);
    const headerLength = buf.readUInt16BE(pos + 4);
    if (headerLength < HEADER_SIZE || length < headerLength || pos + length > buf.length) {
      anomalies.truncated++;
      break;
    }
    const version = buf.readUInt16BE(pos + 6);
    const op = buf.readUInt32BE(pos + 8);
    const body = buf.subarray(pos + headerLength, pos + length);
    pos += length;
    if ((version === Version.Zlib || version === Version.Brotli) && op === Op.Command) {
      // Nesting deeper than one level is not seen in practice; two levels bound the work per message.
      if (depth >= 2) {
        anomalies.badCompression++;
        continue;
      }
      let inner: Buffer;
      try {
        if (budget.left <= 0) throw new Error('over the message budget');
        const limit = { maxOutputLength: budget.left };
        inner = version === Version.Zlib ? inflateSync(body, limit) : brotliDecompressSync(body, limit);
      } catch {
        anomalies.badCompression++;
        budget.left = 0; // the rest of this message is not opened either: no more inflate work for it
        continue;
      }
      budget.left -= inner.length;
      out.push(...decodePackets(inner, anomalies, depth + 1, budget));
    } else {
      out.push({ version, op, body });
    }
  }
  return out;
}
