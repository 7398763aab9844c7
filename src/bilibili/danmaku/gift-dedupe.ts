// One gift, one event: rooms send SEND_GIFT and SEND_GIFT_V2 for the same gift (2026-07 on); the second is dropped.
import type { DanmakuEvent } from './commands.js';

/** Gifts remembered; V1 and V2 of one gift arrive within moments of each other. */
const REMEMBER = 512;

export class GiftDedupe {
  private readonly seen = new Set<string>();
  /** Gifts dropped as repeats. */
  dropped = 0;

  /** False when `ev` is a gift already passed (same tid, or same sender, gift, count and second when there is no tid). */
  admit(ev: DanmakuEvent): boolean {
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
}
