// Guest identity (buvid3/buvid4 from /x/frontend/finger/spi): the thread's cache per main-API host, and cookie merging.

/** The device ids the service expects as cookies; a guest gets them from finger/spi (data.b_3, data.b_4). */
export interface GuestIdentity {
  buvid3: string;
  buvid4: string;
}

/** Cookie names → values, in the order given; later duplicates win. */
export function parseCookie(cookie: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

/** Whether the user's cookie already carries a buvid3 (then no guest identity is fetched: the user's cookie wins). */
export function cookieHasBuvid3(cookie: string): boolean {
  return (parseCookie(cookie).get('buvid3') ?? '') !== '';
}

/** Whether the cookie carries a login (a non-empty SESSDATA): what the service tells a logged-in user from a guest by. */
export function cookieHasLogin(cookie: string | undefined): boolean {
  return (parseCookie(cookie ?? '').get('SESSDATA') ?? '') !== '';
}

/** The Cookie header: the user's cookie, with the guest buvid3/buvid4 added only where the user's lacks them. */
export function mergeCookie(userCookie: string, guest: GuestIdentity | null): string {
  const user = userCookie.trim().replace(/;\s*$/, '');
  if (!guest) return user;
  const have = parseCookie(user);
  const add: string[] = [];
  if (!have.get('buvid3')) add.push(`buvid3=${guest.buvid3}`);
  if (!have.get('buvid4') && guest.buvid4) add.push(`buvid4=${guest.buvid4}`);
  return [user, ...add].filter((s) => s !== '').join('; ');
}

/**
 * The thread's copy of the guest identity of one main-API host, kept until a -352/412 marks it stale (a failed
 * fetch is retried after a minute). Its fetch goes through shared-credentials.ts, so the process fetches it once.
 */
export class GuestIdentityCache {
  private identity: GuestIdentity | null = null;
  private stale = true;
  private lastAttempt = 0;
  private pending: Promise<GuestIdentity | null> | null = null;

  constructor(private readonly retryMs = 60_000) {}

  /** The identity, fetching it when there is none or it is stale; a failed fetch keeps the old one (or null). */
  get(fetch: () => Promise<GuestIdentity>, peek?: () => { value: GuestIdentity } | undefined): Promise<GuestIdentity | null> {
    // Callers that arrive while a fetch is under way wait for it (else they would go out without a buvid3).
    if (this.pending) return this.pending;
    if (!this.stale) return Promise.resolve(this.identity);
    // An identity another thread fetched meanwhile (after this thread's own try failed) is taken without a call.
    const shared = peek?.();
    if (shared) {
      this.identity = shared.value;
      this.stale = false;
      return Promise.resolve(this.identity);
    }
    if (Date.now() - this.lastAttempt < this.retryMs) return Promise.resolve(this.identity);
    this.pending ??= (async () => {
      this.lastAttempt = Date.now();
      try {
        this.identity = await fetch();
        this.stale = false;
      } catch {
        /* keep what we have; the next call after retryMs tries again */
      } finally {
        this.pending = null;
      }
      return this.identity;
    })();
    return this.pending;
  }

  /** The identity already held, without fetching. */
  current(): GuestIdentity | null {
    return this.identity;
  }

  /** After a risk-control answer: fetch a new identity on the next call (a failed fetch then waits retryMs). */
  markStale(): void {
    this.stale = true;
    this.lastAttempt = 0;
  }
}

/** Per main-API host, shared by every client of this thread (the same sharing as the WBI keys); threads share through shared-credentials.ts. */
const caches = new Map<string, GuestIdentityCache>();

export function guestIdentityCache(mainApiHost: string): GuestIdentityCache {
  let cache = caches.get(mainApiHost);
  if (!cache) caches.set(mainApiHost, (cache = new GuestIdentityCache()));
  return cache;
}
