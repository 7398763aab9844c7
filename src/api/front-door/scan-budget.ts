// How many head bytes the front door reads for one client in one second: past it, that client's connections go to node:http.
/*
 * Why: reading a head is linear and at most 8 KiB (simple-get.ts), but a client can send heads as fast as its link
 * allows; the main thread's share it may take is bounded here per client address, the number of its connections by
 * the connection limits. Bounded memory: the table is emptied when it holds MAX_CLIENTS addresses.
 */
const MAX_CLIENTS = 4096;
/** 4 MiB a second: a poller sends a few hundred bytes a request; thousands of requests a second stay far below. */
export const DEFAULT_SCAN_BYTES_PER_SECOND = 4 * 1024 * 1024;

export class ScanBudget {
  private readonly used = new Map<string, { second: number; bytes: number }>();

  constructor(private readonly perSecond = DEFAULT_SCAN_BYTES_PER_SECOND) {}

  /** Counts `bytes` for `client`; false when the client is past its budget for this second. */
  take(client: string | undefined, bytes: number): boolean {
    const key = client ?? '';
    const second = Math.floor(Date.now() / 1000);
    let u = this.used.get(key);
    if (u === undefined || u.second !== second) {
      if (u === undefined && this.used.size >= MAX_CLIENTS) this.used.clear();
      u = { second, bytes: 0 };
      this.used.set(key, u);
    }
    u.bytes += bytes;
    return u.bytes <= this.perSecond;
  }
}
