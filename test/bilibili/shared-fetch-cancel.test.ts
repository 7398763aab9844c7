// A caller that gives up never cancels the process-wide nav/finger fetch, and a thread whose own try failed takes the
// keys another thread fetched meanwhile (the second nav call seen under load, issue 45).
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BilibiliApiClient } from '../../src/bilibili/api-client.js';
import { ApiLimiter } from '../../src/bilibili/api-limiter.js';
import { GuestIdentityCache } from '../../src/bilibili/identity.js';
import { getCredentialStore } from '../../src/bilibili/shared-credentials.js';
import { DOCUMENTED_WBI_KEYS, WbiKeyCache } from '../../src/bilibili/wbi.js';
import { startSim, waitFor } from '../simulator/helpers.js';

let sim: Awaited<ReturnType<typeof startSim>>;
/** In front of the simulator: holds each nav request until `releaseNav` (a nav answered slowly on a busy machine). */
let proxy: Server;
let proxyUrl = '';
let navHeld: Array<() => void> = [];
const releaseNav = (): void => {
  for (const go of navHeld.splice(0)) go();
};

beforeAll(async () => {
  sim = await startSim([{ roomId: 34061, live: true }]);
  const target = new URL(sim.url);
  proxy = createServer((req, res) => {
    const forward = (): void => {
      const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(up);
    };
    if (req.url?.startsWith('/x/web-interface/nav')) navHeld.push(forward);
    else forward();
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  releaseNav();
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await sim.close();
});

describe('the shared WBI keys fetch', () => {
  it('goes on when the caller that started it gives up: the next caller signs with its keys, and nav is called once', async () => {
    const options = { liveApiHost: proxyUrl, apiTimeoutMs: 20_000, riskPauseMs: 200 };
    const limiter = ApiLimiter.create({ spacingMs: 0 });
    const giving = new AbortController();
    // A danmaku client that closes (or a bounded room_init) while the nav it started is still on its way.
    const first = new BilibiliApiClient(options, limiter).getDanmuInfo(34061, giving.signal);
    await waitFor(() => navHeld.length === 1, 10_000, 'the nav request held at the proxy');
    giving.abort();
    await expect(first).rejects.toThrow(/cancelled/);
    const second = new BilibiliApiClient(options, limiter).getRoomInfo(34061);
    releaseNav();
    // Before: the abort cancelled the nav, and this thread then signed nothing for a minute (a -352 for the process).
    expect((await second).roomId).toBe(34061);
    expect(sim.sim.navHits).toBe(1);
    expect(sim.sim.refusedHits.signature).toBe(0);
    const entry = getCredentialStore().get(`wbi ${proxyUrl}`);
    expect([entry.fetches, entry.failures ?? 0]).toEqual([1, 0]);
  });
});

describe('a thread whose own try failed', () => {
  it('takes keys and identity another thread stored, without a call, instead of holding off for the retry', async () => {
    const keys = new WbiKeyCache();
    expect(await keys.get(() => Promise.reject(new Error('timed out')))).toBeNull();
    let calls = 0;
    const fetchAgain = async () => (calls++, { ...DOCUMENTED_WBI_KEYS });
    // Held off: no other thread has keys either.
    expect(await keys.get(fetchAgain, () => undefined)).toBeNull();
    expect(await keys.get(fetchAgain, () => ({ value: { ...DOCUMENTED_WBI_KEYS }, at: Date.now() }))).toEqual(DOCUMENTED_WBI_KEYS);
    const guest = new GuestIdentityCache();
    expect(await guest.get(() => Promise.reject(new Error('timed out')))).toBeNull();
    expect(await guest.get(async () => (calls++, { buvid3: 'x', buvid4: '' }), () => ({ value: { buvid3: 'shared', buvid4: 'b4' } }))).toEqual({ buvid3: 'shared', buvid4: 'b4' });
    expect(calls).toBe(0);
  });
});
