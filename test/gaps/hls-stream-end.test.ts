// An HLS recording whose stream ends: the last listed segments may answer 404 as the stream goes, and nothing follows
// them, so the file reports no gap (the phantom `hls-segment` gap of docs/testing.md, seed 800799656). A segment that
// fails in the middle, with segments after it, is still a gap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';

const ENDS = 23_851;
const MIDDLE = 23_852;

describe('HLS segments that fail', () => {
  let h: Harness;
  const closed = new Map<number, FileClosedData>();
  beforeAll(async () => {
    h = await startHarness({
      // ENDS on the one stream clock, as the model's rooms; MIDDLE on the clip timeline, where HLS faults act.
      rooms: [{ roomId: ENDS, live: true, formats: ['fmp4'], liveStream: { hlsRetentionSec: 60 } }, { roomId: MIDDLE, live: true, formats: ['fmp4'] }],
      roomConfig: { [ENDS]: { RecordingProtocol: 'hls-fmp4' }, [MIDDLE]: { RecordingProtocol: 'hls-fmp4' } },
    });
    for (const id of [ENDS, MIDDLE]) await h.waitEvent('FileOpening', (e) => roomOf(e) === id, 60_000);
    await sleep(3000);
    // Every stream end: the room goes offline while its playlist still lists segments.
    for (let i = 0; i < 3; i++) {
      h.sim.setLive(ENDS, false);
      const end = await h.waitEvent('FileClosed', (e) => roomOf(e) === ENDS, 60_000, h.events.findLastIndex((e) => e.EventType === 'FileClosed') + 1);
      closed.set(ENDS * 10 + i, end.EventData as FileClosedData);
      if (i < 2) {
        h.sim.setLive(ENDS, true);
        await h.waitEvent('FileOpening', (e) => roomOf(e) === ENDS, 60_000, h.events.findLastIndex((e) => e.EventType === 'FileOpening') + 1);
        await sleep(2500);
      }
    }
    // One segment fails all its attempts in the middle of the stream; later ones come.
    h.sim.addFault(MIDDLE, { kind: 'segment-404', count: 1 });
    await sleep(6000);
    h.sim.setLive(MIDDLE, false);
    closed.set(MIDDLE, (await h.waitEvent('FileClosed', (e) => roomOf(e) === MIDDLE, 60_000)).EventData as FileClosedData);
  }, 240_000);
  afterAll(async () => {
    await h?.close();
  });

  it('reports no gap at a stream end', () => {
    for (const i of [0, 1, 2]) expect(closed.get(ENDS * 10 + i)!.Gaps ?? []).toEqual([]);
  });

  it('still reports a segment that failed with segments after it', () => {
    const gaps = closed.get(MIDDLE)!.Gaps ?? [];
    expect(gaps.map((g) => g.Reason)).toEqual(['hls-segment']);
  });
});
