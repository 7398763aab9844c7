// A timestamp jump the repair closes is a gap: on the room resource while recording, in FileClosed, the sidecar and /metrics.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';

const ROOM = 23851;

describe('gap accounting of a closed timestamp jump', () => {
  let h: Harness;
  let roomGaps: { Reason: string; DurationMs: number; RelativePath: string }[];
  let closed: FileClosedData;
  let metrics: string;
  beforeAll(async () => {
    h = await startHarness({ rooms: [{ roomId: ROOM, live: true }], api: true });
    await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM, 30_000);
    await sleep(2000);
    h.sim.addFault(ROOM, { kind: 'timestamp-jump', afterMs: 0, jumpMs: 30_000 });
    const url = h.service.api!.url;
    const until = Date.now() + 20_000;
    do {
      await sleep(500);
      roomGaps = ((await (await fetch(`${url}/api/room/${ROOM}`)).json()) as { gaps: typeof roomGaps }).gaps;
    } while (roomGaps.length === 0 && Date.now() < until);
    h.sim.setLive(ROOM, false);
    closed = (await h.waitEvent('FileClosed', (e) => roomOf(e) === ROOM, 30_000)).EventData as FileClosedData;
    await h.waitEvent('SessionEnded', (e) => roomOf(e) === ROOM, 30_000);
    metrics = await (await fetch(`${url}/metrics`)).text();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('shows the gap on the room resource during the session', () => {
    expect(roomGaps).toHaveLength(1);
    expect(roomGaps[0]!.Reason).toBe('timestamp-jump');
    expect(Math.abs(roomGaps[0]!.DurationMs - 30_000)).toBeLessThanOrEqual(100);
    expect(roomGaps[0]!.RelativePath).toBe(closed.RelativePath);
  });

  it('reports it in FileClosed, the sidecar and liverec_gap_seconds_total', () => {
    expect(closed.Gaps).toEqual([{ StartMs: expect.any(Number), DurationMs: roomGaps[0]!.DurationMs, Reason: 'timestamp-jump' }]);
    expect(closed.Gaps![0]!.StartMs).toBeGreaterThan(1000);
    expect(closed.Gaps![0]!.StartMs).toBeLessThan(closed.Duration * 1000);
    expect(existsSync(`${h.workDir}/${closed.RelativePath}.gaps.json`)).toBe(true);
    const line = metrics.split('\n').find((l) => l.startsWith('liverec_gap_seconds_total{reason="timestamp-jump"}'));
    expect(Number(line?.split(' ').at(-1))).toBeCloseTo(roomGaps[0]!.DurationMs / 1000, 3);
    expect(h.service.recorder.findRoom(ROOM)!.state.sessionGaps).toEqual([]); // the session is over
  });
});
