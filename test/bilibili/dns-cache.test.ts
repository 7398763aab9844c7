// Stream connections look a host up once per 30 s: a second connection to the same host uses the cached answer.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cachedLookup, dnsCacheStats } from '../../src/bilibili/dns-cache.js';
import { openStream } from '../../src/bilibili/stream-download.js';

const lookup = (host: string, options: { all?: boolean; family?: number }): Promise<unknown> =>
  new Promise((resolve, reject) => cachedLookup(host, options, (err, address, family) => (err ? reject(err) : resolve(options.all ? address : { address, family }))));

describe('cachedLookup', () => {
  it('answers both callback forms from one resolver call, filtered by family', async () => {
    const before = dnsCacheStats();
    const all = (await lookup('LocalHost', { all: true })) as { address: string; family: number }[];
    expect(all.length).toBeGreaterThan(0);
    expect(await lookup('localhost', { family: 4 })).toEqual({ address: '127.0.0.1', family: 4 });
    const after = dnsCacheStats();
    expect(after.misses - before.misses).toBe(1);
    expect(after.hits - before.hits).toBe(1);
  });

  it('is what stream connections to a host name use', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const before = dnsCacheStats();
      for (let i = 0; i < 3; i++) {
        const d = await openStream(`http://localhost:${port}/x`, { userAgent: 'test' });
        await d.consume(() => undefined);
      }
      const after = dnsCacheStats();
      expect(after.hits + after.misses - before.hits - before.misses).toBe(3);
      expect(after.hits - before.hits).toBeGreaterThanOrEqual(2);
    } finally {
      server.close();
    }
  });
});
