// Sample entries (stsd children) for streams whose container carries no MP4 setup: FLV and MPEG-TS.
import { box } from './boxes.js';

const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

export function visualEntry(type: 'avc1' | 'hvc1' | 'av01', configType: 'avcC' | 'hvcC' | 'av1C', config: Uint8Array, width: number, height: number): Buffer {
  const b = Buffer.alloc(78);
  b.writeUInt16BE(1, 6); // data_reference_index
  b.writeUInt16BE(width & 0xffff, 24);
  b.writeUInt16BE(height & 0xffff, 26);
  b.writeUInt32BE(0x00480000, 28);
  b.writeUInt32BE(0x00480000, 32);
  b.writeUInt16BE(1, 40); // frame_count
  b.writeUInt16BE(0x18, 74); // depth
  b.writeInt16BE(-1, 76);
  return box(type, b, box(configType, config));
}

/** Sample rate and channel count from an AudioSpecificConfig (explicit rates included). */
export function ascInfo(asc: Uint8Array): { sampleRate: number; channels: number } {
  const index = ((asc[0]! & 0x07) << 1) | (asc[1]! >> 7);
  if (index === 15 && asc.length >= 5) {
    const rate = ((asc[1]! & 0x7f) << 17) | (asc[2]! << 9) | (asc[3]! << 1) | (asc[4]! >> 7);
    return { sampleRate: rate, channels: (asc[4]! >> 3) & 0x0f };
  }
  return { sampleRate: AAC_RATES[index] ?? 48000, channels: (asc[1]! >> 3) & 0x0f };
}

function descriptor(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  // Four-byte length form, as most muxers write it: fits any size.
  const len = body.length;
  return Buffer.concat([Buffer.from([tag, 0x80 | ((len >> 21) & 0x7f), 0x80 | ((len >> 14) & 0x7f), 0x80 | ((len >> 7) & 0x7f), len & 0x7f]), body]);
}

export function aacEntry(asc: Uint8Array): { entry: Buffer; sampleRate: number } {
  const { sampleRate, channels } = ascInfo(asc);
  const dcd = Buffer.alloc(13);
  dcd[0] = 0x40; // MPEG-4 audio
  dcd[1] = 0x15; // audio stream
  const esds = Buffer.concat([
    Buffer.alloc(4), // version + flags
    descriptor(3, Buffer.from([0, 0, 0]), descriptor(4, dcd, descriptor(5, Buffer.from(asc))), descriptor(6, Buffer.from([2]))),
  ]);
  const b = Buffer.alloc(28);
  b.writeUInt16BE(1, 6);
  b.writeUInt16BE(channels || 2, 16);
  b.writeUInt16BE(16, 18);
  b.writeUInt32BE((sampleRate > 0xffff ? 0 : sampleRate) * 0x10000, 24);
  return { entry: box('mp4a', b, box('esds', esds)), sampleRate };
}
