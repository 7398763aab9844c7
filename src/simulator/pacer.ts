// One shared tick for every open FLV response: no timer per client, one write per client per tick.
import { performance } from 'node:perf_hooks';
import type { MediaConnection } from './media-connection.js';

export class Pacer {
  private readonly conns = new Set<MediaConnection>();
  private timer: NodeJS.Timeout | null = null;
  /** Ticks run and the time they took (for the benchmark). */
  ticks = 0;
  busyMs = 0;

  constructor(private readonly tickMs = 40) {}

  get size(): number {
    return this.conns.size;
  }

  add(conn: MediaConnection): void {
    this.conns.add(conn);
    conn.pump(performance.now());
    this.timer ??= setInterval(() => this.tick(), this.tickMs);
  }

  remove(conn: MediaConnection): void {
    this.conns.delete(conn);
    if (this.conns.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private tick(): void {
    const start = performance.now();
    for (const c of this.conns) {
      if (c.closed) this.remove(c);
      else c.pump(start);
    }
    this.ticks++;
    this.busyMs += performance.now() - start;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.conns.clear();
  }
}
