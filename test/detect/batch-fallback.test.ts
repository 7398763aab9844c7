// Issue 45 defect 2: with both batch endpoints refused, every room is checked on its own, in turn, and records.
import { request, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BASE_INFO_PATH } from '../../src/simulator/base-info.js';
import { BATCH_STATUS_PATH } from '../../src/simulator/batch-status.js';
import { type Harness, roomOf, startHarness } from '../rooms/harness.js';

/** A real HTTP proxy in front of the simulator that answers 404 for both batch endpoints (a service that dropped them). */
async function refusingProxy(target: string): Promise<{ url: string; refused: () => number; server: Server }> {
  const upstream = new URL(target);
  let refused = 0;
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === BASE_INFO_PATH || path === BATCH_STATUS_PATH) {
      refused++;
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html>404 Not Found</html>');
      return;
    }
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, refused: () => refused, server };
}

let h: Harness | null = null;
let proxy: Awaited<ReturnType<typeof refusingProxy>> | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  proxy?.server.closeAllConnections();
  await new Promise((r) => proxy?.server.close(r) ?? r(undefined));
  proxy = null;
});

describe('batch endpoints refused', () => {
  it('checks every room the batch did not answer, one by one, and records all five live rooms', async () => {
    const ids = [45_201, 45_202, 45_203, 45_204, 45_205];
    h = await startHarness({
      rooms: ids.map((roomId) => ({ roomId, live: true })),
      beforeStart: async (_sim, url) => {
        proxy = await refusingProxy(url);
      },
      liveApiHost: () => proxy!.url,
    });
    const harness = h;
    // Every room, the last ones in config.json included, gets its own check and records.
    for (const id of ids) await harness.waitEvent('FileOpening', (e) => roomOf(e) === id, 60_000);
    for (const id of ids) expect(harness.sim.room(id).counters.apiHits.getInfoByRoom, `room ${id}`).toBeGreaterThanOrEqual(1);
    expect(proxy!.refused()).toBeGreaterThanOrEqual(1);
    expect(harness.service.recorder.detection.fallbackChecks).toBeGreaterThanOrEqual(ids.length);
  }, 120_000);
});
