// WBI signing: the published test vectors, the key cache, and signed calls against the simulator.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BilibiliApiClient } from '../../src/bilibili/api-client.js';
import { ApiLimiter } from '../../src/bilibili/api-limiter.js';
import { DOCUMENTED_WBI_KEYS, keyFromUrl, mixinKey, signQuery, WbiKeyCache } from '../../src/bilibili/wbi.js';
import { startSim } from '../simulator/helpers.js';

describe('WBI algorithm', () => {
  it('matches the published test vectors', () => {
    expect(mixinKey(DOCUMENTED_WBI_KEYS)).toBe('ea1db124af3c7062474693fa704f4ff8');
    expect(signQuery({ foo: ")-_-( F**' 哔~!", bar: 2333 }, DOCUMENTED_WBI_KEYS, 1748867128)).toBe(
      'bar=2333&foo=-_-%20F%20%E5%93%94~&wts=1748867128&w_rid=6ba96e28a3f09b40e704f1e4b4f8e3e3',
    );
    expect(keyFromUrl('https://i0.hdslb.com/bfs/wbi/7cd084941338484aae1ad9425b84077c.png')).toBe('7cd084941338484aae1ad9425b84077c');
  });

  it('caches keys, refetches after markStale, and keeps old keys when a fetch fails', async () => {
    const cache = new WbiKeyCache(3600_000, 0);
    let fetches = 0;
    const fetch = async () => ({ imgKey: `img${++fetches}`, subKey: 'sub' });
    expect((await cache.get(fetch))?.imgKey).toBe('img1');
    expect((await cache.get(fetch))?.imgKey).toBe('img1');
    cache.markStale();
    expect((await cache.get(fetch))?.imgKey).toBe('img2');
    cache.markStale();
    expect((await cache.get(async () => Promise.reject(new Error('nav down'))))?.imgKey).toBe('img2');
  });

  it('has no built-in keys: null until nav answers once (the caller then sends unsigned)', async () => {
    const cache = new WbiKeyCache(3600_000, 0);
    expect(await cache.get(async () => Promise.reject(new Error('nav down')))).toBeNull();
  });
});

describe('signed calls', () => {
  let sim: Awaited<ReturnType<typeof startSim>>;
  beforeAll(async () => {
    sim = await startSim([{ roomId: 9900, live: true }]);
  });
  afterAll(() => sim.close());

  it('signs getInfoByRoom, getRoomPlayInfo and getDanmuInfo with keys from nav (fetched once)', async () => {
    const api = new BilibiliApiClient({ liveApiHost: sim.url }, ApiLimiter.create({ spacingMs: 0 }));
    await api.getRoomInfo(9900);
    await api.getPlayInfo(9900, 10000);
    await api.getDanmuInfo(9900);
    await api.roomInit(9900);
    expect(sim.sim.navHits).toBe(1);
    const queries = sim.sim.room(9900).apiLog.map((r) => r.query);
    for (const q of queries.slice(0, 3)) {
      const m = /^\?(.*)&w_rid=([0-9a-f]{32})$/.exec(q);
      expect(m, q).not.toBeNull();
      expect(m![1]).toMatch(/(^|&)wts=\d{10}(&|$)/);
      expect(createHash('md5').update(m![1] + 'ea1db124af3c7062474693fa704f4ff8').digest('hex')).toBe(m![2]);
    }
    expect(queries[1]).toContain('protocol=0%2C1');
    expect(queries[3]).toBe('?id=9900');
  });

  it('sends unsigned when nav fails (no built-in keys: a wrong signature is a certain -352)', async () => {
    const api = new BilibiliApiClient({ liveApiHost: sim.url, mainApiHost: `${sim.url}/no-nav-here`, apiTimeoutMs: 3000 }, ApiLimiter.create({ spacingMs: 0 }));
    await api.getPlayInfo(9900, 400);
    const q = sim.sim.room(9900).apiLog.at(-1)!.query;
    expect(q).not.toMatch(/w_rid=/);
    expect(q).toMatch(/^\?room_id=9900&/);
  });

  it('sends plain queries when signing is off', async () => {
    const api = new BilibiliApiClient({ liveApiHost: sim.url, wbiSign: false }, ApiLimiter.create({ spacingMs: 0 }));
    await api.getPlayInfo(9900, 400);
    expect(sim.sim.room(9900).apiLog.at(-1)!.query).toBe('?room_id=9900&protocol=0,1&format=0,1,2&codec=0,1,2&platform=web&ptype=8&dolby=5&panorama=1&qn=400');
  });
});
