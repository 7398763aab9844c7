// Host lookups for stream and segment connections, kept for 30 s: an HLS room opens a connection for every segment and playlist.
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';

/**
 * Without this, each of those connections runs getaddrinfo on the libuv thread pool (with glibc's netlink check
 * of local addresses, and a resolver query for a CDN name) about once a second per HLS room. 30 s stays well
 * inside the short TTLs CDNs give, so a host that moves is followed within half a minute. Failures are not kept.
 */
const TTL_MS = 30_000;
const MAX_HOSTS = 256;

type Callback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

const cache = new Map<string, { until: number; addresses: LookupAddress[] }>();

function answer(addresses: LookupAddress[], options: LookupOptions, callback: Callback): void {
  const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
  if (wanted.length === 0) {
    const err: NodeJS.ErrnoException = new Error('no address of the asked family');
    err.code = 'ENOTFOUND';
    callback(err, []);
  } else if (options.all) callback(null, wanted);
  else callback(null, wanted[0]!.address, wanted[0]!.family);
}

/** A `lookup` for net.connect / tls.connect (both callback forms: `all` or a single address). */
export function cachedLookup(hostname: string, options: LookupOptions, callback: Callback): void {
  const key = hostname.toLowerCase();
  const hit = cache.get(key);
  if (hit && hit.until > Date.now()) {
    hits++;
    return answer(hit.addresses, options, callback);
  }
  misses++;
  dns.lookup(hostname, { all: true, hints: options.hints }, (err, addresses) => {
    if (err) return callback(err, []);
    if (cache.size >= MAX_HOSTS) cache.delete(cache.keys().next().value!);
    cache.set(key, { until: Date.now() + TTL_MS, addresses });
    answer(addresses, options, callback);
  });
}

let hits = 0;
let misses = 0;

/** Lookups answered from the cache and those that went to the resolver (for tests and diagnostics). */
export function dnsCacheStats(): { hits: number; misses: number } {
  return { hits, misses };
}
