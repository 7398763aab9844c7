// Progress watchdog, timing floors and on-disk output stats, against hostile CDNs on loopback and the simulator.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { probe } from '../support/media-tools.js';
import { type Harness, sleep, startHarness } from '../rooms/harness.js';
import { until } from '../webhook/helpers.js';
import { type HostileCdn, startHostileCdn } from './hostile-cdn.js';

const DRIP = 31001;
const CHUNK_EXT = 31002;
const TRAILER = 31003;
const NO_HEADERS = 31004;
const NOT_FOUND = 31005;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.flv')).map((d) => join(d.parentPath, d.name));
}

describe('progress watchdog and timing floors', () => {
  let h: Harness;
  const cdns = new Map<number, HostileCdn>();
  beforeAll(async () => {
    // Bytes arrive every 500 ms, far inside the 3-s watchdog: only a progress watchdog notices the stall.
    cdns.set(DRIP, await startHostileCdn('drip', { dripMs: 500 }));
    cdns.set(CHUNK_EXT, await startHostileCdn('chunk-ext', { dripMs: 500 }));
    cdns.set(TRAILER, await startHostileCdn('trailer', { dripMs: 500 }));
    cdns.set(NO_HEADERS, await startHostileCdn('no-headers'));
    h = await startHarness({
      rooms: [
        ...[...cdns].map(([roomId, cdn]) => ({ roomId, live: true, streamHost: cdn.url })),
        { roomId: NOT_FOUND, live: true },
      ],
      // 0 would mean a retry loop without pause; the recorder uses its floor instead.
      global: { TimingWatchdogTimeout: 3000, TimingStreamRetry: 0 },
    });
    h.sim.addFault(NOT_FOUND, { kind: 'stream-404', count: 100_000 });
  });
  afterAll(async () => {
    await h?.close();
    for (const c of cdns.values()) await c.close();
  });

  it.each([
    ['a 1-byte drip', DRIP],
    ['an endless chunk extension', CHUNK_EXT],
    ['an endless trailer', TRAILER],
  ])('%s triggers a reconnect, and the file before it is closed and valid', async (_name, roomId) => {
    await until(() => cdns.get(roomId)!.connections >= 2, 40_000, `a reconnect of room ${roomId}`);
    const closed = await h.waitEvent('FileClosed', (e) => e.EventData.RoomId === roomId, 20_000);
    const p = await probe(join(h.workDir, (closed.EventData as FileClosedData).RelativePath));
    expect(p.errors).toBe('');
    expect(p.codecs.sort()).toEqual(['aac', 'h264']);
  });

  it('TimingStreamRetry 0 does not retry a failing stream in a tight loop', async () => {
    const hits = () => h.sim.room(NOT_FOUND).counters.apiHits.total;
    await until(() => h.sim.room(NOT_FOUND).counters.streamRequests >= 1, 20_000, 'the first stream request');
    const before = hits();
    await sleep(5000);
    // With the 1-s floor a retry costs ~2 API calls a second; without it, ~10.
    expect(hits() - before).toBeLessThan(20);
  });

  it('output stats count only what reached the disk', async () => {
    const room = h.service.recorder.findRoom(NO_HEADERS)!;
    await until(() => room.recordingStats.totalInputBytes > 200_000, 30_000, 'input on the header-less room');
    const onDisk = filesUnder(h.workDir).filter((f) => f.includes(String(NO_HEADERS))).reduce((n, f) => n + statSync(f).size, 0);
    expect(room.recordingStats.totalOutputBytes).toBeLessThanOrEqual(onDisk);
    expect(room.recordingStats.totalOutputBytes).toBe(0);
  });
});
