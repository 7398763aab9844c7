// Danmaku framing and command parsing: byte layout, zlib/brotli batches, cut frames and bad commands counted.
import { brotliCompressSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MalformedCommand, parseCommand } from '../../src/bilibili/danmaku/commands.js';
import { decodePackets, encodePacket, newPacketAnomalies, Op } from '../../src/bilibili/danmaku/packet.js';

/** A server packet built by hand, independent of encodePacket. */
function serverPacket(op: number, version: number, body: Buffer): Buffer {
  const head = Buffer.from([0, 0, 0, 0, 0, 16, 0, version, 0, 0, 0, op, 0, 0, 0, 0]);
  head.writeUInt32BE(16 + body.length, 0);
  return Buffer.concat([head, body]);
}
const cmd = (o: object): Buffer => serverPacket(5, 0, Buffer.from(JSON.stringify(o)));

describe('packets', () => {
  it('encodes client packets with the 16-byte big-endian header', () => {
    const p = encodePacket(Op.Auth, '{"roomid":1}');
    expect(p.subarray(0, 16).toString('hex')).toBe('0000001c001000010000000700000001');
    expect(p.subarray(16).toString()).toBe('{"roomid":1}');
    expect(encodePacket(Op.Heartbeat)).toHaveLength(16);
  });

  it('opens zlib (v2) and brotli (v3) batches into their inner packets', () => {
    const inner = Buffer.concat([cmd({ cmd: 'A' }), cmd({ cmd: 'B' }), cmd({ cmd: 'C' })]);
    for (const packed of [serverPacket(5, 2, deflateSync(inner)), serverPacket(5, 3, brotliCompressSync(inner))]) {
      const a = newPacketAnomalies();
      const out = decodePackets(packed, a);
      expect(out.map((p) => JSON.parse(p.body.toString()).cmd)).toEqual(['A', 'B', 'C']);
      expect(out.every((p) => p.op === 5 && p.version === 0)).toBe(true);
      expect(a).toEqual({ truncated: 0, badCompression: 0 });
    }
  });

  it('reads several packets in one message (heartbeat reply + command)', () => {
    const pop = Buffer.alloc(4);
    pop.writeUInt32BE(12345);
    const out = decodePackets(Buffer.concat([serverPacket(3, 1, pop), cmd({ cmd: 'LIVE' })]), newPacketAnomalies());
    expect(out.map((p) => p.op)).toEqual([3, 5]);
    expect(out[0]!.body.readUInt32BE(0)).toBe(12345);
  });

  it('counts cut frames and bad compression instead of throwing, keeping what came before', () => {
    const good = cmd({ cmd: 'LIVE' });
    const a = newPacketAnomalies();
    expect(decodePackets(Buffer.concat([good, good.subarray(0, 20)]), a)).toHaveLength(1);
    expect(decodePackets(good.subarray(0, 10), a)).toHaveLength(0);
    const liar = Buffer.from(good);
    liar.writeUInt16BE(4, 4); // header length < 16
    expect(decodePackets(liar, a)).toHaveLength(0);
    expect(a.truncated).toBe(3);
    expect(decodePackets(serverPacket(5, 2, Buffer.from('not zlib')), a)).toHaveLength(0);
    expect(decodePackets(serverPacket(5, 3, Buffer.from('not brotli')), a)).toHaveLength(0);
    expect(a.badCompression).toBe(2);
    // A batch whose inner packets are cut still yields the whole ones.
    const inner = Buffer.concat([good, good.subarray(0, 25)]);
    expect(decodePackets(serverPacket(5, 3, brotliCompressSync(inner)), a)).toHaveLength(1);
    expect(a.truncated).toBe(4);
  });
});

describe('commands', () => {
  it('types the commands a recorder uses', () => {
    expect(parseCommand({ cmd: 'LIVE', roomid: 5, live_time: 1700000000 })).toMatchObject({ type: 'LIVE', roomId: 5, liveTime: 1700000000 });
    expect(parseCommand({ cmd: 'LIVE', roomid: 5 })).not.toHaveProperty('liveTime');
    expect(parseCommand({ cmd: 'PREPARING', roomid: '5', round: 1 })).toMatchObject({ type: 'PREPARING', roomId: 5, round: true });
    expect(parseCommand({ cmd: 'ROOM_CHANGE', data: { title: 't', area_name: 'a', parent_area_name: 'p' } })).toMatchObject({ title: 't', areaName: 'a', parentAreaName: 'p' });
    expect(parseCommand({ cmd: 'CUT_OFF', msg: 'bad' })).toMatchObject({ type: 'CUT_OFF', message: 'bad' });
    const danmu = { cmd: 'DANMU_MSG:4:0:2:2:2:0', info: [[0, 1, 25, 16777215, 1700000000123], 'hi', [42, 'bob', 1, 0], [], [], [], 0, 3] };
    expect(parseCommand(danmu)).toMatchObject({ type: 'DANMU_MSG', text: 'hi', uid: 42, uname: 'bob', isAdmin: true, guardLevel: 3, sendTime: 1700000000123 });
    expect(parseCommand({ cmd: 'SEND_GIFT', data: { giftName: 'g', num: 2, uid: 1, uname: 'u', coin_type: 'gold', price: 100 } })).toMatchObject({ giftName: 'g', num: 2, coinType: 'gold' });
    expect(parseCommand({ cmd: 'SUPER_CHAT_MESSAGE', data: { message: 'm', price: 30, uid: 1, time: 60, user_info: { uname: 'u' } } })).toMatchObject({ message: 'm', price: 30, uname: 'u', duration: 60 });
    expect(parseCommand({ cmd: 'GUARD_BUY', data: { uid: 1, username: 'cap', guard_level: 3, num: 1, price: 198000, gift_name: '舰长' } })).toMatchObject({ guardLevel: 3, username: 'cap' });
  });

  it('ignores unknown commands and rejects known ones with bad shapes', () => {
    expect(parseCommand({ cmd: 'ONLINE_RANK_COUNT', data: {} })).toBeNull();
    expect(() => parseCommand({ cmd: 'DANMU_MSG', info: 'x' })).toThrow(MalformedCommand);
    expect(() => parseCommand({ cmd: 'SEND_GIFT' })).toThrow(MalformedCommand);
    expect(() => parseCommand([1, 2])).toThrow(MalformedCommand);
    expect(() => parseCommand({ nocmd: 1 })).toThrow(MalformedCommand);
  });
});
