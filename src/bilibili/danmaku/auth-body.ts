// The body of the danmaku AUTH packet (op 7) as the web client sends it in 2025-26.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh `queue_uuid`: 8 lower-case letters and digits per connection, like the web client's. */
export function queueUuid(): string {
  return [...randomBytes(8)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

export interface AuthFields {
  uid: number;
  roomId: number;
  /** buvid3 of the user's cookie or of the guest identity; '' when there is none (then the field is left out). */
  buvid: string;
  /** The getDanmuInfo token; '' on the fallback host (then `key` is left out). */
  token: string;
  queueUuid?: string;
}

/**
 * Field order and values of the web client (2025-07 on): uid, roomid, protover 3, buvid, queue_uuid, scene "room",
 * platform "web", type 2, key. Not `support_ack`: announcing it promises to acknowledge messages marked `p_is_ack`,
 * and no capture or peer shows how the web client acknowledges (no peer sends it either; docs/danmaku.md).
 */
export function authBody(f: AuthFields): Record<string, unknown> {
  const body: Record<string, unknown> = { uid: f.uid, roomid: f.roomId, protover: 3 };
  if (f.buvid) body.buvid = f.buvid;
  body.queue_uuid = f.queueUuid ?? queueUuid();
  body.scene = 'room';
  body.platform = 'web';
  body.type = 2;
  if (f.token) body.key = f.token;
  return body;
}
