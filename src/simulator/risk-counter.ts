// Per-IP request counting for the simulator's risk control: over `perMinute` live-API calls in a sliding minute → 412.
import type { IncomingMessage } from 'node:http';

const WINDOW_MS = 60_000;

export class RiskCounter {
  /** Calls per minute per IP that trip risk control (0 = off). */
  perMinute: number;
  /** Every live-API call of any kind (batch calls included), refused ones too. */
  apiCalls = 0;
  /** Calls answered 412 because their IP was over the threshold. */
  riskHits = 0;
  /** The most calls one IP made within a sliding minute. */
  peakPerMinute = 0;
  private readonly calls = new Map<string, number[]>();

  constructor(perMinute = 0) {
    this.perMinute = perMinute;
  }

  /** Counts one call; true when it is over the threshold and must be refused. */
  count(req: IncomingMessage, now = Date.now()): boolean {
    this.apiCalls++;
    const ip = req.socket.remoteAddress ?? '?';
    let times = this.calls.get(ip);
    if (!times) this.calls.set(ip, (times = []));
    times.push(now);
    let drop = 0;
    while (drop < times.length && times[drop]! <= now - WINDOW_MS) drop++;
    if (drop > 0) times.splice(0, drop);
    this.peakPerMinute = Math.max(this.peakPerMinute, times.length);
    if (this.perMinute > 0 && times.length > this.perMinute) {
      this.riskHits++;
      return true;
    }
    return false;
  }

  /** Calls in the last minute, per IP. */
  lastMinute(now = Date.now()): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [ip, times] of this.calls) out[ip] = times.filter((t) => t > now - WINDOW_MS).length;
    return out;
  }
}
