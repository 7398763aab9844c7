// USER_TOAST_MSG_V2 is a guard purchase when no GUARD_BUY arrives for it: one <guard> either way, never two.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/bilibili/danmaku/commands.js';
import { GiftDedupe } from '../../src/bilibili/danmaku/gift-dedupe.js';
import { danmakuElement } from '../../src/danmaku/xml-format.js';

const FLAGS = { superChat: true, gift: true, guard: true, raw: false };
const guardBuy = JSON.parse(readFileSync('test/fixtures/bili-real/danmaku/bac_cmd_GUARD_BUY.json', 'utf8'));
const d = guardBuy.data;
/** The toast of the same purchase, in the V2 layout of public client models (no capture of it exists). */
const toastV2 = {
  cmd: 'USER_TOAST_MSG_V2',
  data: {
    sender_uinfo: { uid: d.uid, base: { name: d.username, face: '' } }, receiver_uinfo: { uid: 1, base: { name: 'anchor' } },
    guard_info: { guard_level: d.guard_level, role_name: d.gift_name, room_guard_count: 10, op_type: 1, start_time: d.start_time, end_time: d.end_time },
    pay_info: { payflow_id: 'x', price: d.price, num: d.num, unit: '月' }, gift_info: { gift_id: d.gift_id },
  },
};

describe('USER_TOAST_MSG_V2', () => {
  it('reads as a GUARD_BUY with the sender, level, count, price and role name', () => {
    const ev = parseCommand(toastV2);
    expect(ev).toMatchObject({ type: 'GUARD_BUY', uid: d.uid, username: d.username, guardLevel: d.guard_level, num: d.num, price: d.price, giftName: d.gift_name });
    expect(danmakuElement(ev!, 1000, FLAGS)).toMatch(/^\s*<guard /);
  });

  it('is written when no GUARD_BUY comes, and dropped as a repeat when one does (in either order)', () => {
    const alone = new GiftDedupe();
    expect(alone.admit(parseCommand(toastV2)!)).toBe(true);
    for (const order of [[guardBuy, toastV2], [toastV2, guardBuy]]) {
      const dedupe = new GiftDedupe();
      expect(order.map((c) => dedupe.admit(parseCommand(c)!, 1000))).toEqual([true, false]);
      expect(dedupe.dropped).toBe(1);
    }
    // A second purchase later is its own guard.
    const later = new GiftDedupe();
    expect([later.admit(parseCommand(guardBuy)!, 0), later.admit(parseCommand(guardBuy)!, 60_000)]).toEqual([true, true]);
  });
});
