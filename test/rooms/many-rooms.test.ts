// Twenty rooms recorded at once with the default placement (one thread: 32 rooms fill a thread first); every file must be valid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { defaultMaxHosts, ROOMS_BEFORE_NEXT_THREAD } from '../../src/rooms/placement.js';
import { probe } from '../support/media-tools.js';
import { type Harness, sleep, startHarness } from './harness.js';

const IDS = Array.from({ length: 20 }, (_, i) => 25001 + i);

describe('20 rooms at once', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rooms: IDS.map((roomId, i) => ({ roomId, name: `many-${i}`, live: true, bitrateKbps: 500 + 100 * i })) });
  });
  afterAll(() => h?.close());

  it('records every room into valid files, on the default placement\'s threads', async () => {
    for (const id of IDS) await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === id, 30_000);
    expect(h.service.recorder.workerCount).toBe(Math.min(Math.ceil(IDS.length / ROOMS_BEFORE_NEXT_THREAD), defaultMaxHosts()));
    // brec's first ratio is ~0 (its interval starts at year 1); from the second GOP on it tracks real time.
    const deadline = Date.now() + 20_000;
    const pace = () => IDS.map((id) => h.service.recorder.findRoom(id)!.recordingStats.durationRatio);
    while (Date.now() < deadline && pace().some((r) => !(r > 0.5))) await sleep(250);
    expect(pace().every((r) => r > 0.5)).toBe(true);
    await sleep(2000);
    await h.service.recorder.close();
    const closed = h.events.filter((e) => e.EventType === 'FileClosed').map((e) => e.EventData as FileClosedData);
    expect(new Set(closed.map((c) => c.RoomId))).toEqual(new Set(IDS));
    const probes = await Promise.all(closed.map((c) => probe(`${h.workDir}/${c.RelativePath}`)));
    for (const [i, p] of probes.entries()) {
      expect(p.errors, closed[i]!.RelativePath).toBe('');
      expect(p.codecs.sort()).toEqual(['aac', 'h264']);
      expect(Math.abs(p.duration - closed[i]!.Duration)).toBeLessThan(0.1 + 0.02 * closed[i]!.Duration);
    }
  });
});
