// Every danmaku capture (command bodies, protobuf data.pb with their raw dumps, binary packets with their hexdumps) read
// by liverec's receiver and parsers; V2 gifts written as brec gift elements, V1 and V2 of one gift deduped.
import { describe, expect, it } from 'vitest';
import { type DanmakuEvent, MalformedCommand, parseCommandEvents } from '../../src/bilibili/danmaku/commands.js';
import { decodePackets, encodePacket, newPacketAnomalies, Op } from '../../src/bilibili/danmaku/packet.js';
import { DanmakuReceiver, newDanmakuStats } from '../../src/bilibili/danmaku/receiver.js';
import { decodeInteractWordV2, decodeSendGiftV2 } from '../../src/bilibili/danmaku/v2-protobuf.js';
import { danmakuElement } from '../../src/danmaku/xml-format.js';
import { EXPECTED } from './danmaku-expected.js';
import { captureBytes, captureFiles, captureJson, captureText, decodeRawTop, hexdumpBytes } from './read-capture.js';

const summary = (events: DanmakuEvent[]): Record<string, unknown>[] => events.map(({ raw: _raw, ...rest }) => rest);
const commandFiles = captureFiles('danmaku').filter((f) => /_cmd_.*\.jsonl?c?$/.test(f));

/** The lines of the nested block `field {…}` at the top level of a decode_raw dump. */
function decodeRawBlock(text: string, field: number): Map<number, string> {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l === `${field} {`);
  const inner: string[] = [];
  let depth = 1;
  for (const l of lines.slice(start + 1)) {
    const t = l.trim();
    if (t.endsWith('{')) depth++;
    else if (t === '}' && --depth === 0) break;
    inner.push(depth === 1 ? t : `  ${t}`);
  }
  return decodeRawTop(inner.join('\n'));
}

describe('captured danmaku commands', () => {
  it('has more than 150 command captures, each one below', () => {
    expect(commandFiles.length).toBeGreaterThan(150);
  });

  for (const file of commandFiles) {
    it(file, () => {
      for (const raw of captureJson('danmaku', file)) {
        if (file === 'bac_cmd_DANMU_MSG.jsonc') {
          // Not a command: the annotated `extra` object of a DANMU_MSG (info[0][15].extra); the same message as _2.
          expect(() => parseCommandEvents(raw)).toThrow(MalformedCommand);
          const extra = raw as { content: string; color: number };
          const twin = summary(parseCommandEvents(captureJson('danmaku', 'bac_cmd_DANMU_MSG_2.jsonc')[0]))[0]!;
          expect([extra.content, extra.color]).toEqual([twin.text, twin.color]);
          continue;
        }
        expect(summary(parseCommandEvents(raw))).toEqual(EXPECTED[file] ?? []);
      }
    });
  }

  it('data.pb of SEND_GIFT_V2 decodes to the fields of its raw dump (sender 1/2/3, gift item 10, receiver 29)', () => {
    for (const name of ['starbot_cmd_SEND_GIFT_V2_free_2026', 'starbot_cmd_SEND_GIFT_V2_paid_2026']) {
      const dump = captureText('danmaku', `${name}.decode_raw.txt`);
      const top = decodeRawTop(dump);
      const item = decodeRawBlock(dump, 10);
      const v = decodeSendGiftV2((captureJson('danmaku', `${name}.json`)[0] as { data: { pb: string } }).data.pb);
      expect([String(v.uid), v.uname, v.face]).toEqual([top.get(1), top.get(2), top.get(3)]);
      const g = v.gifts[0]!;
      expect(v.gifts.length).toBe(1);
      expect([String(g.giftId), g.giftName, String(g.num), String(g.price), String(g.totalCoin), g.coinType, g.tid, String(g.timestamp), g.action])
        .toEqual([1, 2, 3, 5, 7, 8, 9, 10, 18].map((f) => item.get(f)));
      expect(g.receiverUid).toBeGreaterThan(0);
      expect(g.receiverName).not.toBe('');
    }
  });

  it('data.pb of INTERACT_WORD_V2 decodes to the fields of its raw dump (1 uid, 2 uname, 5 msg_type, 6 room, 7 time)', () => {
    const cases: [string, string][] = [
      ['starbot_cmd_INTERACT_WORD_V2_enter_2026.decode_raw.txt', (captureJson('danmaku', 'starbot_cmd_INTERACT_WORD_V2_enter_2026.json')[0] as { data: { pb: string } }).data.pb],
      ['starbot_cmd_INTERACT_WORD_V2_follow_2026.decode_raw.txt', (captureJson('danmaku', 'starbot_cmd_INTERACT_WORD_V2_follow_2026.json')[0] as { data: { pb: string } }).data.pb],
      ['qydysky_INTERACT_WORD_V2_data_pb.decode_raw.txt', captureText('danmaku', 'qydysky_INTERACT_WORD_V2_data_pb.base64').trim()],
    ];
    for (const [dumpFile, pb] of cases) {
      const top = decodeRawTop(captureText('danmaku', dumpFile));
      const v = decodeInteractWordV2(pb);
      expect([String(v.uid), v.uname, String(v.msgType), String(v.roomId), String(v.timestamp)]).toEqual([1, 2, 5, 6, 7].map((f) => top.get(f)));
    }
  });

  it('PLAYURL_RELOAD carries a playurl in the 2025+ codec shape (drm, drm_key_systems, video_codecs.base, hdr_type)', () => {
    const raw = captureJson('danmaku', 'bac_cmd_PLAYURL_RELOAD.json')[0] as { data: { playurl: { stream: { format: { codec: Record<string, unknown>[] }[] }[] } } };
    const codecs = raw.data.playurl.stream.flatMap((s) => s.format.flatMap((f) => f.codec));
    expect(codecs.map((c) => `${c.codec_name}:${(c.video_codecs as { base: string }).base}:${c.drm}:${c.drm_key_systems}:${c.hdr_type}`)).toEqual(
      Array(3).fill(['avc:avc1.64002a:false:null:0', 'hevc:hvc1.1.6.L120:false:null:0']).flat(),
    );
  });
});

describe('V2 gifts in the XML', () => {
  const v2 = parseCommandEvents(captureJson('danmaku', 'starbot_cmd_SEND_GIFT_V2_paid_2026.json')[0]);

  it('a V2 gift is a brec gift element with giftname, giftcount, uid and user', () => {
    const line = danmakuElement(v2[0]!, 1500, { raw: false, superChat: true, gift: true, guard: true });
    expect(line).toBe('  <gift ts="1.500" user="Ceriselune" uid="3546837514455634" giftname="粉丝团灯牌" giftcount="1" />\n');
  });

  it('V1 and V2 of one gift (same tid) give one event; a different gift passes', () => {
    const events: DanmakuEvent[] = [];
    const stats = newDanmakuStats();
    const receiver = new DanmakuReceiver(stats, { event: (e) => events.push(e), authReply: () => {} });
    const pb = (captureJson('danmaku', 'starbot_cmd_SEND_GIFT_V2_paid_2026.json')[0] as { data: { pb: string } }).data.pb;
    const v1 = { cmd: 'SEND_GIFT', data: { giftName: '粉丝团灯牌', num: 1, uid: 3546837514455634, uname: 'Ceriselune', tid: '4812888751724338176', giftId: 31164, timestamp: 1788426528 } };
    const other = captureJson('danmaku', 'starbot_cmd_SEND_GIFT_V2_free_2026.json')[0];
    for (const c of [{ cmd: 'SEND_GIFT_V2', data: { pb } }, v1, other, v1]) receiver.receive(encodePacket(Op.Command, JSON.stringify(c)));
    expect(events.map((e) => e.type === 'SEND_GIFT' && `${e.uname}:${e.tid}`)).toEqual(['Ceriselune:4812888751724338176', '饼゜:4813392376817167872']);
    expect([stats.events, stats.ignoredCommands]).toEqual([2, 2]);
    // An unreadable data.pb is a malformed command, counted, never thrown.
    receiver.receive(encodePacket(Op.Command, JSON.stringify({ cmd: 'SEND_GIFT_V2', data: { pb: 'not protobuf!' } })));
    expect(stats.anomalies.malformedCommands).toBe(1);
  });
});

describe('captured danmaku packets', () => {
  const packets = captureFiles('danmaku').filter((f) => f.endsWith('.bin'));

  it('each .bin is the bytes of its hexdump', () => {
    expect(packets.length).toBe(5);
    for (const f of packets) expect(hexdumpBytes(captureText('danmaku', f.replace(/\.bin$/, '.hexdump.txt')))).toEqual(captureBytes('danmaku', f));
  });

  it('decodes: auth (op 7), auth reply (op 8), heartbeat (op 2), heartbeat reply (op 3) and a brotli (protover 3) command', () => {
    const read = (f: string): { anomalies: ReturnType<typeof newPacketAnomalies>; p: ReturnType<typeof decodePackets> } => {
      const anomalies = newPacketAnomalies();
      return { anomalies, p: decodePackets(captureBytes('danmaku', `bac_packet_${f}.bin`), anomalies) };
    };
    const auth = read('auth_op7').p;
    expect(auth.map((x) => x.op)).toEqual([Op.Auth]);
    expect(JSON.parse(auth[0]!.body.toString())).toMatchObject({ uid: 160148624, roomid: 22608112, protover: 3, platform: 'web', type: 2 });
    expect(read('auth_reply_op8').p.map((x) => [x.op, x.body.toString()])).toEqual([[Op.AuthReply, '{"code":0}']]);
    expect(read('heartbeat_op2').p.map((x) => x.op)).toEqual([Op.Heartbeat]);
    // The reply's header says 20 bytes; the doc's dump has 15 more after it: one packet (popularity 2466), the rest counted.
    const reply = read('heartbeat_reply_op3');
    expect([reply.p.map((x) => [x.op, x.body.readUInt32BE(0)]), reply.anomalies.truncated]).toEqual([[[Op.HeartbeatReply, 2466]], 1]);
    const brotli = read('normal_op5_protover3_brotli');
    expect(brotli.anomalies).toEqual({ truncated: 0, badCompression: 0 });
    expect(brotli.p.map((x) => (JSON.parse(x.body.toString()) as { cmd: string; data: { num: number } }))).toEqual([
      { cmd: 'WATCHED_CHANGE', data: { num: 22097, text_small: '2.2万', text_large: '2.2万人看过' } },
    ]);
  });
});
