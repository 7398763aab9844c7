// Real danmaku events for the danmaku tests: the simulator's command payloads through the client's command parser.
import { parseCommand, type DanmakuEvent } from '../../src/bilibili/danmaku/commands.js';
import { danmuCommand, giftCommand, guardCommand, superChatCommand } from '../../src/simulator/danmaku-messages.js';
import { SimRoom } from '../../src/simulator/room.js';

const room = new SimRoom({ roomId: 1 });
const ev = (command: object): DanmakuEvent => parseCommand(command)!;

export const comment = (text: string, extra: { uid?: number; mode?: number; color?: number } = {}): DanmakuEvent => {
  const e = ev(danmuCommand({ text, uid: extra.uid ?? 7, color: extra.color }));
  return extra.mode === undefined ? e : { ...(e as Extract<DanmakuEvent, { type: 'DANMU_MSG' }>), mode: extra.mode };
};
export const superChat = (message: string): DanmakuEvent => ev(superChatCommand(room, { message, price: 50, uname: 'sc-user' }));
export const gift = (): DanmakuEvent => ev(giftCommand({ num: 2 }));
export const guard = (): DanmakuEvent => ev(guardCommand({ guardLevel: 3 }));
