// Failed Basic-auth attempts per client address: a token bucket that blocks guessing, with one log line per block.
import { logger } from '../log/logger.js';

export interface AuthThrottleOptions {
  /** Wrong guesses allowed back to back (default 10). */
  burst?: number;
  /** One more guess is allowed every this many ms (default 6 s: 10 a minute). */
  refillMs?: number;
  /** Addresses tracked at most; the oldest are forgotten beyond (default 10 000). */
  maxClients?: number;
}

interface Bucket {
  tokens: number;
  at: number;
  failures: number;
  blockedLogged: boolean;
}

/** Only wrong credentials cost a token: a browser's first request without any is part of normal use. */
export class AuthThrottle {
  private readonly clients = new Map<string, Bucket>();
  private readonly burst: number;
  private readonly refillMs: number;
  private readonly maxClients: number;

  constructor(options: AuthThrottleOptions = {}) {
    this.burst = Math.max(1, options.burst ?? 10);
    this.refillMs = Math.max(1, options.refillMs ?? 6000);
    this.maxClients = Math.max(1, options.maxClients ?? 10_000);
  }

  private bucket(address: string, now: number): Bucket | undefined {
    const b = this.clients.get(address);
    if (!b) return undefined;
    const gained = Math.floor((now - b.at) / this.refillMs);
    if (gained > 0) {
      b.tokens = Math.min(this.burst, b.tokens + gained);
      b.at += gained * this.refillMs;
      if (b.tokens >= this.burst) {
        this.clients.delete(address);
        return undefined;
      }
    }
    return b;
  }

  /** Ms until this address may try again; 0 = it may try now. */
  retryAfterMs(address: string, now = Date.now()): number {
    const b = this.bucket(address, now);
    if (!b || b.tokens > 0) return 0;
    if (!b.blockedLogged) {
      b.blockedLogged = true;
      logger().warn({ client: address, failures: b.failures, code: 'AUTH_THROTTLED' }, 'too many failed logins from this address; answering 429 until it slows down');
    }
    return b.at + this.refillMs - now;
  }

  /** Records a wrong guess (logged). */
  fail(address: string, now = Date.now()): void {
    let b = this.bucket(address, now);
    if (!b) {
      if (this.clients.size >= this.maxClients) this.clients.delete(this.clients.keys().next().value as string);
      b = { tokens: this.burst, at: now, failures: 0, blockedLogged: false };
      this.clients.set(address, b);
    }
    b.tokens--;
    b.failures++;
    if (b.tokens > 0) b.blockedLogged = false;
    logger().warn({ client: address, failures: b.failures, code: 'AUTH_FAILED' }, 'HTTP Basic authentication failed');
  }
}
