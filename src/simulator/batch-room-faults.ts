// A fault armed on a room also answers a batch call that names the room: risk control does not care how a call asks.
import { takeFault } from './faults.js';
import type { SimRoom } from './room.js';
import { RISK_352_COMPACT, risk352WithVoucher } from './strict.js';

/** The answer of the first room's matching armed API fault (412, -352 or a broken answer), or null. */
export function batchRoomFault(rooms: readonly SimRoom[], path: string, now = Date.now()): { status: number; body: unknown } | null {
  for (const room of rooms) {
    if (room.apiFaults.length === 0) continue;
    const f = takeFault(room.apiFaults, now, (x) => x.kind !== 'api-delay' && (!x.path || path.includes(x.path)));
    if (!f) continue;
    switch (f.kind) {
      case 'api412':
        return { status: f.inBody ? 200 : 412, body: { code: -412, message: '请求被拦截', ttl: 1, data: null } };
      case 'api352':
        return { status: 200, body: f.compact ? { ...RISK_352_COMPACT } : risk352WithVoucher() };
      default:
        return { status: 500, body: { error: 'Internal Server Error' } };
    }
  }
  return null;
}
