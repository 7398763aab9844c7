// Every SEND_GIFT_V2 item of the captures becomes one <gift>; switch (field 11) false writes none; a blind box
// (V1 captures' data.blind_gift) adds its name and price as attributes; PLAYURL_RELOAD_MASTER reloads like PLAYURL_RELOAD.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCommand, parseCommandEvents } from '../../src/bilibili/danmaku/commands.js';
import { decodeSendGiftV2, encodeSendGiftV2 } from '../../src/bilibili/danmaku/v2-protobuf.js';
import { danmakuElement } from '../../src/danmaku/xml-format.js';

const DIR = 'test/fixtures/bili-real/danmaku/';
const json = (f: string): any => JSON.parse(readFileSync(DIR + f, 'utf8'));
const FLAGS = { superChat: true, gift: true, guard: true, raw: false };
const gifts = (raw: unknown): string[] => parseCommandEvents(raw).map((ev) => danmakuElement(ev, 1000, FLAGS)).filter((l): l is string => l !== null);

describe('SEND_GIFT_V2 items', () => {
  const v2 = readdirSync(DIR).filter((f) => /SEND_GIFT_V2.*\.json$/.test(f));

  it('every item of every captured SEND_GIFT_V2 is one <gift>, and both captures say switch true', () => {
    expect(v2.length).toBeGreaterThanOrEqual(2);
    for (const f of v2) {
      const cmd = json(f);
      const decoded = decodeSendGiftV2(cmd.data.pb);
      expect(decoded.switch, f).toBe(true);
      const lines = gifts(cmd);
      expect(lines.length, f).toBe(decoded.gifts.length);
      decoded.gifts.forEach((g, i) => {
        expect(lines[i]).toContain(`giftname="${g.giftName}"`);
        expect(lines[i]).toContain(`giftcount="${g.num}"`);
        expect(lines[i]).toContain(`uid="${decoded.uid}"`);
      });
    }
  });

  it('a burst of several items (php-bilibili-danmu #240) gives one <gift> per item; switch false gives none', () => {
    const item = (n: number) => ({ giftId: n, giftName: `盲盒礼物${n}`, num: n, price: 100, totalCoin: 100 * n, coinType: 'gold', tid: `t${n}`, timestamp: 1788426528, batchComboId: '', action: '爆出', receiverUid: 7, receiverName: 'anchor' });
    const burst = { cmd: 'SEND_GIFT_V2', data: { pb: encodeSendGiftV2({ uid: 9, uname: 'u', face: '', gifts: [item(1), item(2), item(3), item(4)] }) } };
    expect(gifts(burst).map((l) => /giftname="([^"]+)"/.exec(l)![1])).toEqual(['盲盒礼物1', '盲盒礼物2', '盲盒礼物3', '盲盒礼物4']);
    const hidden = { cmd: 'SEND_GIFT_V2', data: { pb: encodeSendGiftV2({ uid: 9, uname: 'u', face: '', gifts: [item(1)], switch: false }) } };
    expect(parseCommandEvents(hidden)).toEqual([]);
    expect(gifts(hidden)).toEqual([]);
  });

  it('a captured blind box (V1 blind_gift) writes its own name and price beside the brec attributes', () => {
    const random = readdirSync(DIR).filter((f) => /SEND_GIFT_RandomGift.*\.json$/.test(f));
    expect(random.length).toBeGreaterThan(0);
    for (const f of random) {
      const cmd = json(f);
      const [line] = gifts(cmd);
      expect(line, f).toContain(`blindgiftname="${cmd.data.blind_gift.original_gift_name}"`);
      expect(line, f).toContain(`blindprice="${cmd.data.blind_gift.original_gift_price}"`);
      expect(line, f).toContain(`giftname="${cmd.data.giftName}"`);
    }
    const plain = gifts(json('starbot_cmd_SEND_GIFT_PaidGift_1_2025.json'))[0]!;
    expect(plain).not.toContain('blind');
  });

  it('PLAYURL_RELOAD_MASTER reloads the stream like PLAYURL_RELOAD', () => {
    const reload = json('bac_cmd_PLAYURL_RELOAD.json');
    expect(parseCommand({ ...reload, cmd: 'PLAYURL_RELOAD_MASTER' })).toMatchObject({ type: 'PLAYURL_RELOAD' });
  });
});
