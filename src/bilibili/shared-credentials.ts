// Process-wide store of guest identities and WBI keys: one SharedArrayBuffer that every room thread reads and writes.
import { getEnvironmentData, setEnvironmentData } from 'node:worker_threads';
/*
 * Why: WBI keys and the guest buvid3/buvid4 are the same for every room, and the service should see one identity per
 * process, fetched once. The main thread creates the store when this module loads and publishes it as worker
 * environment data, which every worker started later inherits (a SharedArrayBuffer is shared, not copied). Layout: Int32 cells [0] write lock, [1] version (odd while a write
 * is under way), [2] byte length, then UTF-8 JSON of { [key]: Entry }. Writes take the lock with a CAS spin (the
 * critical section is one small JSON write); reads retry until they see the same even version before and after.
 */

export interface SharedEntry {
  value?: unknown;
  /** When `value` was fetched (epoch ms). */
  at?: number;
  /** Values fetched at or before this are stale (a 412/-352 seen by any thread). */
  staleAt?: number;
  /** A thread is fetching until this time; others wait for its value. */
  claimedUntil?: number;
  /** Fetches started for this key, by every thread (tests and stats: each one is a call to the service). */
  fetches?: number;
  /** Of those, the ones that failed (a timeout, a refused connection): each is followed by another thread's try. */
  failures?: number;
}

const HEADER = 12;
const SIZE = 64 * 1024;

export class CredentialStore {
  private readonly cells: Int32Array;
  private readonly bytes: Uint8Array;

  private constructor(private readonly buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer, 0, 3);
    this.bytes = new Uint8Array(buffer, HEADER);
  }

  static create(): CredentialStore {
    return new CredentialStore(new SharedArrayBuffer(SIZE));
  }

  static fromShared(buffer: SharedArrayBuffer): CredentialStore {
    return new CredentialStore(buffer);
  }

  toShared(): SharedArrayBuffer {
    return this.buffer;
  }

  private readAll(): Record<string, SharedEntry> {
    for (;;) {
      const v1 = Atomics.load(this.cells, 1);
      if (v1 % 2 === 1) continue;
      const len = Atomics.load(this.cells, 2);
      const text = len === 0 ? '{}' : Buffer.from(this.bytes.slice(0, len)).toString('utf8');
      if (Atomics.load(this.cells, 1) !== v1) continue;
      try {
        return JSON.parse(text) as Record<string, SharedEntry>;
      } catch {
        return {};
      }
    }
  }

  get(key: string): SharedEntry {
    return this.readAll()[key] ?? {};
  }

  /** Changes one entry under the write lock; returns what `change` returned. */
  update<T>(key: string, change: (entry: SharedEntry) => T): T {
    while (Atomics.compareExchange(this.cells, 0, 0, 1) !== 0) { /* spin: writers hold the lock for microseconds */ }
    try {
      const all = this.readAll();
      const entry = all[key] ?? {};
      const result = change(entry);
      all[key] = entry;
      const data = Buffer.from(JSON.stringify(all), 'utf8');
      if (data.length > this.bytes.length) return result; // never expected: a few keys per API host
      Atomics.add(this.cells, 1, 1);
      this.bytes.set(data);
      Atomics.store(this.cells, 2, data.length);
      Atomics.add(this.cells, 1, 1);
      return result;
    } finally {
      Atomics.store(this.cells, 0, 0);
    }
  }
}

const ENV_KEY = 'liverec:credential-store';
let store: CredentialStore | null = null;

/** The process-wide store: inherited from the thread that started this one, else created here (and passed on). */
export function getCredentialStore(): CredentialStore {
  if (!store) {
    const inherited = getEnvironmentData(ENV_KEY);
    store = inherited instanceof SharedArrayBuffer ? CredentialStore.fromShared(inherited) : CredentialStore.create();
    if (!(inherited instanceof SharedArrayBuffer)) setEnvironmentData(ENV_KEY, store.toShared());
  }
  return store;
}

// Taken or created at load, before this thread starts any room worker, so that every worker inherits the same store.
getCredentialStore();


const CLAIM_MS = 15_000;
const POLL_MS = 50;
/** When the value this thread last took for each key was fetched: a 412/-352 marks exactly that value stale. */
const seen = new Map<string, number>();

/**
 * A value fetched once per process: a usable stored value (fresh, not stale, younger than `maxAgeMs`) is taken as it
 * is; otherwise one thread claims the fetch and the others wait for its result (or fetch themselves once the claimant
 * has not renewed its claim for `claimMs`: its thread is gone).
 */
export async function fetchShared<T>(key: string, maxAgeMs: number, fetch: () => Promise<T>, s: CredentialStore = getCredentialStore(), claimMs = CLAIM_MS): Promise<T> {
  const usable = (e: SharedEntry, now: number): boolean => e.at !== undefined && e.value !== undefined && e.at > (e.staleAt ?? 0) && now - e.at < maxAgeMs;
  for (;;) {
    const now = Date.now();
    const e = s.get(key);
    if (usable(e, now)) {
      seen.set(key, e.at!);
      return e.value as T;
    }
    const claimed = s.update(key, (entry) => {
      if ((entry.claimedUntil ?? 0) > now) return false;
      entry.claimedUntil = now + claimMs;
      return true;
    });
    if (claimed) {
      s.update(key, (entry) => void (entry.fetches = (entry.fetches ?? 0) + 1));
      // The claim is renewed while the fetch is under way (it may wait its turn in the API budget for long): others
      // keep waiting for it, and fetch themselves only once a claimant has stopped renewing (its thread is gone).
      const renew = setInterval(() => s.update(key, (entry) => void (entry.claimedUntil = Date.now() + claimMs)), claimMs / 3);
      renew.unref();
      try {
        const value = await fetch();
        const at = Date.now();
        s.update(key, (entry) => Object.assign(entry, { value, at, claimedUntil: 0 }));
        seen.set(key, at);
        return value;
      } catch (err) {
        s.update(key, (entry) => Object.assign(entry, { claimedUntil: 0, failures: (entry.failures ?? 0) + 1 }));
        throw err;
      } finally {
        clearInterval(renew);
      }
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * The usable value another thread stored, without fetching (undefined when there is none): a thread whose own try
 * failed, or that holds off its next try, still takes what another thread fetched meanwhile.
 */
export function peekShared<T>(key: string, maxAgeMs: number, s: CredentialStore = getCredentialStore()): { value: T; at: number } | undefined {
  const e = s.get(key);
  if (e.at === undefined || e.value === undefined || e.at <= (e.staleAt ?? 0) || Date.now() - e.at >= maxAgeMs) return undefined;
  seen.set(key, e.at);
  return { value: e.value as T, at: e.at };
}

/**
 * After a 412/-352: the value this thread used is stale for every thread, and the next use fetches again (once for
 * the process). A newer value another thread fetched meanwhile stays usable.
 */
export function markSharedStale(key: string, s: CredentialStore = getCredentialStore()): void {
  const used = seen.get(key) ?? Date.now();
  s.update(key, (entry) => void (entry.staleAt = Math.max(entry.staleAt ?? 0, used)));
}
