// The guest view of danmaku commands (src/simulator/danmaku-guest-view.ts) on real captures: senders masked, the rest intact.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { guestView, maskName } from '../../src/simulator/danmaku-guest-view.js';
import { decodeInteractWordV2 } from '../../src/bilibili/danmaku/v2-protobuf.js';
import { parseCommand } from '../../src/bilibili/danmaku/commands.js';

const capture = (name: string): any => JSON.parse(readFileSync(`test/fixtures/bili-real/danmaku/${name}`, 'utf8'));

describe('guest view', () => {
  it('masks a name to its first character and ***', () => {
    expect(maskName('viewer')).toBe('v***');
    expect(maskName('冰绒のReisen')).toBe('冰***');
    expect(maskName('𠮷野家')).toBe('𠮷***');
    expect(maskName('S***')).toBe('S***');
    expect(maskName('')).toBe('***');
  });

  it('DANMU_MSG: info[2] and the 2025 user object lose uid and name; text, colour and avatar stay', () => {
    const real = capture('starbot_cmd_DANMU_MSG_Danmu_1_2025.json');
    const guest = guestView(real) as any;
    expect(guest.info[2].slice(0, 2)).toEqual([0, '冰***']);
    expect(guest.info[2].slice(2)).toEqual(real.info[2].slice(2));
    expect(guest.info[0][15].user.uid).toBe(0);
    expect(guest.info[0][15].user.base.name).toBe('冰***');
    expect(guest.info[0][15].user.base.origin_info.name).toBe('冰***');
    expect(guest.info[0][15].user.base.face).toBe(real.info[0][15].user.base.face);
    expect(guest.info[1]).toBe(real.info[1]);
    expect(real.info[2][1]).toBe('冰绒のReisen-IAだけ'); // the capture itself untouched
    expect(parseCommand(guest)).toMatchObject({ type: 'DANMU_MSG', uid: 0, uname: '冰***', text: real.info[1] });
  });

  it('INTERACT_WORD_V2: field 1 left out, field 2 masked, every other byte kept', () => {
    const real = capture('starbot_cmd_INTERACT_WORD_V2_enter_2026.json');
    const guest = guestView(real) as any;
    const before = decodeInteractWordV2(real.data.pb);
    const after = decodeInteractWordV2(guest.data.pb);
    expect(after).toEqual({ ...before, uid: 0, uname: `${[...before.uname][0]}***` });
    expect(Buffer.from(guest.data.pb, 'base64').length).toBeLessThan(Buffer.from(real.data.pb, 'base64').length);
  });

  it('gifts, super chats and guards pass unchanged (no source shows them masked)', () => {
    for (const name of ['bac_cmd_SEND_GIFT.json', 'bac_cmd_SUPER_CHAT_MESSAGE.json', 'bac_cmd_GUARD_BUY.json']) {
      const real = capture(name);
      expect(guestView(real)).toBe(real);
    }
  });
});
