// WBI request signing (wts + w_rid) for the web endpoints that require it, and the per-thread key cache.
import { createHash } from 'node:crypto';

/** Positions in img_key+sub_key that form the mixin key (only the first 32 entries of the table matter). */
const MIXIN_TABLE = [46, 47, 18, 2, 53, 8, 23, 32, 15, 50, 10, 31, 58, 3, 45, 35, 27, 43, 5, 49, 33, 9, 42, 19, 29, 28, 14, 39, 12, 38, 41, 13];

export interface WbiKeys {
  imgKey: string;
  subKey: string;
}

/**
 * The key pair of bilibili-API-collect's signing vector (also blrec's self-tests and the nav capture): for tests and
 * the simulator only. Never signed with unless nav hands them out: an unsigned call is better than a wrong signature.
 */
export const DOCUMENTED_WBI_KEYS: Readonly<WbiKeys> = Object.freeze({ imgKey: '7cd084941338484aae1ad9425b84077c', subKey: '4932caff0ff746eab6f01bf08b70ac45' });

export function mixinKey(keys: WbiKeys): string {
  const raw = keys.imgKey + keys.subKey;
  return MIXIN_TABLE.map((i) => raw[i] ?? '').join('');
}

/** Drops `!'()*`, keeps ASCII letters, digits and `-_.~`, percent-encodes every other UTF-8 byte (upper-case hex). */
export function wbiEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value.replace(/[!'()*]/g, ''), 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The signed query (without `?`): params plus wts, sorted by key, then `&w_rid=`. */
export function signQuery(params: Record<string, string | number>, keys: WbiKeys, wts = Math.floor(Date.now() / 1000)): string {
  const all: Record<string, string> = { wts: String(wts) };
  for (const [k, v] of Object.entries(params)) all[k] = String(v);
  const query = Object.keys(all)
    .sort()
    .map((k) => `${k}=${wbiEncode(all[k]!)}`)
    .join('&');
  const wRid = createHash('md5').update(query + mixinKey(keys)).digest('hex');
  return `${query}&w_rid=${wRid}`;
}

/** `https://i0.hdslb.com/bfs/wbi/7cd0...077c.png` → `7cd0...077c`. */
export function keyFromUrl(url: string): string {
  const file = url.slice(url.lastIndexOf('/') + 1);
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

/** Keys per main-API host, shared by every client in the thread; refreshed every 6 h or after a -352. */
export class WbiKeyCache {
  /** Null until nav answered once: callers then send unsigned (no built-in keys, issue 47). */
  private keys: WbiKeys | null = null;
  private fetchedAt = 0;
  private lastAttempt = 0;
  private pending: Promise<WbiKeys | null> | null = null;

  constructor(private readonly maxAgeMs = 6 * 3600_000, private readonly retryMs = 60_000) {}

  /**
   * Current keys; fetches new ones when due (a failed fetch keeps the keys nav gave before and is retried after a
   * minute). Null when nav never answered. `peek`: usable keys another thread stored, read without a call.
   */
  get(fetch: () => Promise<WbiKeys>, peek?: () => { value: WbiKeys; at: number } | undefined): Promise<WbiKeys | null> {
    const now = Date.now();
    if (this.pending) return this.pending; // a fetch under way: wait for it rather than sign with stale keys
    if (now - this.fetchedAt < this.maxAgeMs) return Promise.resolve(this.keys);
    // Keys another thread fetched meanwhile (after this thread's own try failed): taken without a call, rather than
    // signing nothing until the retry is due (an unsigned getInfoByRoom is a certain -352 for the whole process).
    const shared = peek?.();
    if (shared) {
      this.keys = shared.value;
      this.fetchedAt = shared.at;
      return Promise.resolve(this.keys);
    }
    if (now - this.lastAttempt < this.retryMs) return Promise.resolve(this.keys);
    this.pending ??= (async () => {
      this.lastAttempt = Date.now();
      try {
        this.keys = await fetch();
        this.fetchedAt = Date.now();
      } catch {
        /* keep the keys we have */
      } finally {
        this.pending = null;
      }
      return this.keys;
    })();
    return this.pending;
  }

  /** After a -352/412: the next signed call fetches keys again (a failed fetch then waits a minute before the next try). */
  markStale(): void {
    this.fetchedAt = 0;
    this.lastAttempt = 0;
  }
}
