// One gift, one event: rooms send SEND_GIFT and SEND_GIFT_V2 for the same gift (2026-07 on); the second is dropped.
// Likewise one guard purchase: GUARD_BUY and the guard read from USER_TOAST_MSG_V2 (whichever comes first is kept).
import type { DanmakuEvent } from './commands.js';

/** Gifts remembered; V1 and V2 of one gift arrive within moments of each other. */
const REMEMBER = 512;
/** A GUARD_BUY and the USER_TOAST_MSG_V2 of the same purchase arrive within this of each other. */
const GUARD_WINDOW_MS = 30_000;

export class GiftDedupe {
  private readonly seen = new Set<string>();
  /** Gifts dropped as repeats. */
  dropped = 0;

  /** False when `ev` is a gift already passed (same tid, or same sender, gift, count and second when there is no tid). */
  private readonly guards = new Map<string, number>();

  admit(ev: DanmakuEvent, now = Date.now()): boolean {
    if (ev.type === 'GUARD_BUY') return this.admitGuard(ev, now);
    if (ev.type !== 'SEND_GIFT') return true;
    const key = ev.tid !== '' ? `t:${ev.tid}` : `u:${ev.uid}:${ev.giftId}:${ev.num}:${ev.timestamp}`;
    if (this.seen.has(key)) {
      this.dropped++;
      return false;
    }
    this.seen.add(key);
    if (this.seen.size > REMEMBER) this.seen.delete(this.seen.values().next().value!);
    return true;
  }

  /** The same sender, level and count within GUARD_WINDOW_MS is the same purchase (GUARD_BUY and its toast). */
  private admitGuard(ev: Extract<DanmakuEvent, { type: 'GUARD_BUY' }>, now: number): boolean {
    for (const [k, at] of this.guards) if (now - at > GUARD_WINDOW_MS) this.guards.delete(k);
    const key = `${ev.uid}:${ev.guardLevel}:${ev.num}`;
    if (this.guards.has(key)) {
      this.dropped++;
      return false;
    }
    this.guards.set(key, now);
    return true;
  }
}
