// A small MPEG-TS packetizer (ISO/IEC 13818-1) for streams the simulator builds itself: PAT, PMT with ES descriptors, PES.
import { TS_PACKET, writeTimestamp } from '../../hls/ts-packets.js';

export const PMT_PID = 0x1000;

export interface TsElementary {
  pid: number;
  streamType: number;
  /** The ES_info descriptors of the PMT entry, whole (tag, length, body). */
  descriptors: Buffer;
}

export interface PesOptions {
  /** Program clock reference (90 kHz base) in the first packet's adaptation field. */
  pcr?: number;
  /** Sets random_access_indicator: the PES starts a keyframe. */
  randomAccess?: boolean;
  /** data_alignment_indicator (an access unit starts the payload). */
  aligned?: boolean;
  /** PES_packet_length 0 (allowed for video) instead of the real length. */
  unbounded?: boolean;
}

/** CRC-32/MPEG-2 (polynomial 0x04C11DB7, not reflected, no final xor) of PSI sections. */
export function crc32Mpeg(b: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of b) {
    crc ^= byte << 24;
    for (let i = 0; i < 8; i++) crc = crc & 0x80000000 ? ((crc << 1) ^ 0x04c11db7) >>> 0 : (crc << 1) >>> 0;
  }
  return crc >>> 0;
}

/** One program's packets, with continuity counters per PID. */
export class TsMuxer {
  private readonly cc = new Map<number, number>();

  constructor(private readonly streams: readonly TsElementary[], private readonly pcrPid: number) {}

  /** PAT + PMT, as every HLS segment starts (a player may join at any segment). */
  tables(): Buffer {
    const pat = Buffer.from([0x00, 0x01, 0xc1, 0x00, 0x00, 0x00, 0x01, 0xe0 | (PMT_PID >> 8), PMT_PID & 0xff]);
    const es = Buffer.concat(this.streams.map((s) => Buffer.concat([
      Buffer.from([s.streamType, 0xe0 | (s.pid >> 8), s.pid & 0xff, 0xf0 | (s.descriptors.length >> 8), s.descriptors.length & 0xff]), s.descriptors,
    ])));
    const pmt = Buffer.concat([Buffer.from([0x00, 0x01, 0xc1, 0x00, 0x00, 0xe0 | (this.pcrPid >> 8), this.pcrPid & 0xff, 0xf0, 0x00]), es]);
    return Buffer.concat([this.section(0x0000, 0x00, pat), this.section(PMT_PID, 0x02, pmt)]);
  }

  /** One PES (PTS, and DTS when it differs) cut into packets; the last packet is padded with adaptation-field stuffing. */
  pes(pid: number, streamId: number, pts: number, dts: number | null, payload: Buffer, o: PesOptions = {}): Buffer {
    const withDts = dts !== null && dts !== pts;
    const header = Buffer.alloc(withDts ? 19 : 14);
    header.set([0x00, 0x00, 0x01, streamId], 0);
    const length = header.length - 6 + payload.length;
    header.writeUInt16BE(o.unbounded || length > 0xffff ? 0 : length, 4);
    header[6] = 0x80 | (o.aligned ? 0x04 : 0);
    header[7] = withDts ? 0xc0 : 0x80;
    header[8] = withDts ? 10 : 5;
    header[9] = withDts ? 0x30 : 0x20;
    writeTimestamp(header, 9, pts);
    if (withDts) {
      header[14] = 0x10;
      writeTimestamp(header, 14, dts);
    }
    const data = Buffer.concat([header, payload]);
    const out: Buffer[] = [];
    for (let p = 0, first = true; p < data.length; first = false) {
      const af: number[] = [];
      if (first && (o.pcr !== undefined || o.randomAccess)) {
        af.push((o.randomAccess ? 0x40 : 0) | (o.pcr !== undefined ? 0x10 : 0));
        if (o.pcr !== undefined) af.push(...pcrBytes(o.pcr));
      }
      const room = TS_PACKET - 4 - (af.length > 0 ? 1 + af.length : 0);
      const take = Math.min(room, data.length - p);
      let stuff = room - take;
      if (stuff > 0 && af.length === 0) {
        stuff--; // the adaptation_field_length byte itself
        if (stuff > 0) { af.push(0x00); stuff--; }
      }
      for (; stuff > 0; stuff--) af.push(0xff);
      const hasAf = af.length > 0 || take < room;
      out.push(this.packet(pid, first, hasAf ? Buffer.from([af.length, ...af]) : null, data.subarray(p, p + take)));
      p += take;
    }
    return Buffer.concat(out);
  }

  private section(pid: number, tableId: number, body: Buffer): Buffer {
    const section = Buffer.concat([Buffer.from([tableId, 0xb0 | ((body.length + 4) >> 8), (body.length + 4) & 0xff]), body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32Mpeg(section));
    const payload = Buffer.concat([Buffer.from([0x00]), section, crc]);
    return this.packet(pid, true, null, Buffer.concat([payload, Buffer.alloc(TS_PACKET - 4 - payload.length, 0xff)]));
  }

  private packet(pid: number, unitStart: boolean, af: Buffer | null, payload: Buffer): Buffer {
    const cc = this.cc.get(pid) ?? 0;
    this.cc.set(pid, (cc + 1) & 0x0f);
    const head = Buffer.from([0x47, (unitStart ? 0x40 : 0) | (pid >> 8), pid & 0xff, (af ? 0x30 : 0x10) | cc]);
    const packet = Buffer.concat([head, af ?? Buffer.alloc(0), payload]);
    if (packet.length !== TS_PACKET) throw new Error(`TS packet of ${packet.length} bytes`);
    return packet;
  }
}

/** program_clock_reference: 33-bit base, 6 reserved bits, 9-bit extension (0). */
function pcrBytes(pcr: number): number[] {
  const v = ((pcr % 2 ** 33) + 2 ** 33) % 2 ** 33;
  return [Math.floor(v / 2 ** 25) & 0xff, Math.floor(v / 2 ** 17) & 0xff, Math.floor(v / 2 ** 9) & 0xff, Math.floor(v / 2) & 0xff, ((v % 2) << 7) | 0x7e, 0x00];
}
