// Cutting: ByTime (minutes of media), BySize (MiB of output) and CuttingByTitle split files at GOP boundaries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData, RecorderEvent } from '../../src/events/types.js';
import { probe } from '../support/media-tools.js';
import { type Harness, startHarness } from './harness.js';

const BY_TIME = 22001;
const BY_SIZE = 22002;
const BY_TITLE = 22003;
const closedOf = (h: Harness, room: number): FileClosedData[] =>
  h.events.filter((e: RecorderEvent) => e.EventType === 'FileClosed' && e.EventData.RoomId === room).map((e) => e.EventData as FileClosedData);

describe('cutting', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      rooms: [
        { roomId: BY_TIME, name: 'bytime', live: true, bitrateKbps: 800 },
        { roomId: BY_SIZE, name: 'bysize', live: true, bitrateKbps: 800 },
        { roomId: BY_TITLE, name: 'bytitle', title: 'first title', live: true, bitrateKbps: 800 },
      ],
      roomConfig: {
        [BY_TIME]: { CuttingMode: 1, CuttingNumber: 1 },
        [BY_SIZE]: { CuttingMode: 2, CuttingNumber: 1 },
        [BY_TITLE]: { CuttingByTitle: true },
      },
    });
  });
  afterAll(() => h?.close());

  it('CuttingByTitle: a title change starts a new file', async () => {
    await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === BY_TITLE);
    await new Promise((r) => setTimeout(r, 3000));
    h.sim.changeRoom(BY_TITLE, { title: 'second title' });
    const next = await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === BY_TITLE && e.EventData.Title === 'second title');
    expect((next.EventData as FileClosedData).RelativePath).toContain('second title');
    expect(closedOf(h, BY_TITLE)).toHaveLength(1);
  });

  it('BySize 1 MiB and ByTime 1 minute', async () => {
    // Media time, not wall time, decides ByTime; 1 minute of stream needs a little over a minute to arrive.
    await h.waitEvent('FileClosed', (e) => e.EventData.RoomId === BY_TIME, 90_000);
    await h.waitEvent('FileClosed', (e) => e.EventData.RoomId === BY_SIZE, 60_000);
    const [t] = closedOf(h, BY_TIME);
    expect(t!.Duration).toBeGreaterThan(60);
    expect(t!.Duration).toBeLessThan(66); // split before the first GOP that ends past the limit
    const [s] = closedOf(h, BY_SIZE);
    expect(s!.FileSize).toBeGreaterThan(0.8 * 1024 * 1024);
    expect(s!.FileSize).toBeLessThan(1.35 * 1024 * 1024);
    for (const f of [t!, s!]) {
      const p = await probe(`${h.workDir}/${f.RelativePath}`);
      expect(p.errors).toBe('');
      expect(Math.abs(p.duration - f.Duration) / f.Duration).toBeLessThan(0.02);
    }
  }, 120_000);
});
