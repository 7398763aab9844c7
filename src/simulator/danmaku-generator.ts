// A configurable rate of mixed danmaku (comments, super chats, gifts, guards), each stamped with the media position it was sent at.
import { performance } from 'node:perf_hooks';
import { danmuCommand, giftCommand, giftV2Command, guardCommand, interactWordV2Command, superChatCommand } from './danmaku-messages.js';
import type { SimRoom } from './room.js';

export type GeneratedCmd = 'DANMU_MSG' | 'SUPER_CHAT_MESSAGE' | 'SEND_GIFT' | 'GUARD_BUY';

export interface GeneratorConfig {
  /** Messages per second (0 stops). */
  rate: number;
  /** Relative weights of the kinds, sent in a fixed repeating pattern (default 7:1:1:1). */
  mix?: Partial<Record<GeneratedCmd, number>>;
}

/**
 * One sent message. `connection` is the serial of the room's newest open FLV response and `positionMs` the media
 * position on it (ms from that response's first tag, timestamp jumps excluded), or null with no stream open. The
 * same facts are in the message itself: the user name is `g<seq>@<connection>:<positionMs>`.
 */
export interface SentMessage {
  seq: number;
  cmd: GeneratedCmd;
  connection: number | null;
  positionMs: number | null;
  at: number;
}

const TICK_MS = 20;
const LOG_LIMIT = 200_000;
const DEFAULT_MIX: Record<GeneratedCmd, number> = { DANMU_MSG: 7, SUPER_CHAT_MESSAGE: 1, SEND_GIFT: 1, GUARD_BUY: 1 };

/** The kinds in a repeating pattern that spreads each kind evenly (so counts over any span follow the mix). */
function pattern(mix: Record<GeneratedCmd, number>): GeneratedCmd[] {
  const kinds = (Object.keys(mix) as GeneratedCmd[]).filter((k) => mix[k] > 0);
  const total = kinds.reduce((a, k) => a + mix[k], 0);
  const out: GeneratedCmd[] = [];
  const credit = new Map(kinds.map((k) => [k, 0]));
  for (let i = 0; i < total; i++) {
    for (const k of kinds) credit.set(k, credit.get(k)! + mix[k]);
    const pick = kinds.reduce((a, b) => (credit.get(b)! > credit.get(a)! ? b : a));
    credit.set(pick, credit.get(pick)! - total);
    out.push(pick);
  }
  return out;
}

export class DanmakuGenerator {
  readonly sent: SentMessage[] = [];
  readonly counts: Record<GeneratedCmd, number> = { DANMU_MSG: 0, SUPER_CHAT_MESSAGE: 0, SEND_GIFT: 0, GUARD_BUY: 0 };
  private timer: NodeJS.Timeout | null = null;
  private rate = 0;
  private kinds: GeneratedCmd[] = pattern(DEFAULT_MIX);
  private since = 0;
  private emittedSince = 0;
  private seq = 0;

  constructor(private readonly room: SimRoom, private readonly push: (commands: object[]) => void) {}

  configure(config: GeneratorConfig): this {
    this.rate = config.rate;
    if (config.mix) this.kinds = pattern({ ...DEFAULT_MIX, ...config.mix });
    this.since = performance.now();
    this.emittedSince = 0;
    if (this.rate > 0) this.timer ??= setInterval(() => this.tick(), TICK_MS).unref();
    else this.stop();
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.rate = 0;
  }

  toJSON(): Record<string, unknown> {
    return { rate: this.rate, total: this.seq, counts: this.counts };
  }

  private tick(): void {
    const now = performance.now();
    const due = Math.floor(((now - this.since) / 1000) * this.rate) - this.emittedSince;
    if (due <= 0) return;
    this.emittedSince += due;
    const conn = [...this.room.media].filter((c) => c.open).pop() ?? null;
    const position = conn?.mediaPosition(now) ?? null;
    const commands: object[] = [];
    for (let i = 0; i < due; i++) {
      const seq = ++this.seq;
      const cmd = this.kinds[(seq - 1) % this.kinds.length]!;
      const msg: SentMessage = { seq, cmd, connection: position === null ? null : conn!.serial, positionMs: position, at: Date.now() };
      commands.push(...this.command(msg));
      this.counts[cmd]++;
      if (this.sent.length < LOG_LIMIT) this.sent.push(msg);
    }
    this.push(commands);
  }

  /** The commands of one message: a gift goes out as SEND_GIFT and SEND_GIFT_V2 with one tid, as 2026 rooms send it. */
  private command(m: SentMessage): object[] {
    const uname = `g${m.seq}@${m.connection ?? 0}:${m.positionMs ?? -1}`;
    const uid = m.seq;
    switch (m.cmd) {
      case 'DANMU_MSG':
        return m.seq % 10 === 1
          ? [danmuCommand({ text: `comment ${m.seq}`, uid, uname, color: 0xffffff }), interactWordV2Command(this.room, uid, uname)]
          : [danmuCommand({ text: `comment ${m.seq}`, uid, uname, color: [0xffffff, 0xfe0302, 0x00cd00][m.seq % 3] })];
      case 'SUPER_CHAT_MESSAGE': return [superChatCommand(this.room, { message: `super chat ${m.seq}`, uid, uname, price: 30, time: 60 })];
      case 'SEND_GIFT': {
        const gift = { uid, uname, giftName: '辣条', num: 1 + (m.seq % 3), tid: `${this.room.roomId}${String(m.seq).padStart(9, '0')}` };
        return [giftCommand(gift), giftV2Command(gift, this.room)];
      }
      case 'GUARD_BUY': return [guardCommand({ uid, username: uname, guardLevel: 1 + (m.seq % 3) })];
    }
  }
}
