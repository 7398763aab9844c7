// A recording that starts 20 s after the stream did begins at the stream's start (the CDN keeps 60 s of segments).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData, FileOpeningData } from '../../src/events/types.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { breaks, expectClipFrames, seiTimestamps, seiTimestampsMp4 } from './helpers.js';

const ROOM = 23821;

describe('late start', () => {
  let h: Harness;
  let opening: FileOpeningData;
  let closed: FileClosedData;
  beforeAll(async () => {
    h = await startHarness({
      rooms: [{ roomId: ROOM, live: true, formats: ['flv', 'fmp4'], liveStream: { streamAgeSec: 20, hlsRetentionSec: 60 } }],
      roomConfig: { [ROOM]: { RecordingProtocol: 'flv' } },
    });
    opening = (await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM, 60_000)).EventData as FileOpeningData;
    await sleep(4000);
    h.sim.setLive(ROOM, false);
    closed = (await h.waitEvent('FileClosed', (e) => roomOf(e) === ROOM, 60_000)).EventData as FileClosedData;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('starts within one GOP of the stream start and says how far back it reached', async () => {
    const path = `${h.workDir}/${closed.RelativePath}`;
    const sei = seiTimestamps(path);
    expect(sei[0]!).toBeLessThanOrEqual(960);
    expect(breaks(sei)).toEqual([]);
    expect(sei.at(-1)!).toBeGreaterThan(20_000);
    expect(opening.BackfillMs).toBeGreaterThan(18_000);
    expect(closed.Gaps ?? []).toEqual([]);
    expect(await expectClipFrames(path, sei, (got, want) => expect(got).toEqual(want))).toBe('');
  });
});

describe('late start over HLS fMP4', () => {
  const HLS_ROOM = 23822;
  let h: Harness;
  let opening: FileOpeningData;
  let closed: FileClosedData;
  beforeAll(async () => {
    h = await startHarness({
      rooms: [{ roomId: HLS_ROOM, live: true, formats: ['fmp4'], liveStream: { streamAgeSec: 20, hlsRetentionSec: 60 } }],
      roomConfig: { [HLS_ROOM]: { RecordingProtocol: 'hls-fmp4' } },
    });
    opening = (await h.waitEvent('FileOpening', (e) => roomOf(e) === HLS_ROOM, 60_000)).EventData as FileOpeningData;
    await sleep(4000);
    h.sim.setLive(HLS_ROOM, false);
    closed = (await h.waitEvent('FileClosed', (e) => roomOf(e) === HLS_ROOM, 60_000)).EventData as FileClosedData;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('starts within one GOP of the stream start and says how far back it reached', async () => {
    const path = `${h.workDir}/${closed.RelativePath}`;
    const sei = seiTimestampsMp4(path);
    expect(sei[0]!).toBeLessThanOrEqual(960);
    expect(breaks(sei)).toEqual([]);
    expect(opening.BackfillMs).toBeGreaterThan(18_000);
    expect(closed.Gaps ?? []).toEqual([]);
    expect(await expectClipFrames(path, sei, (got, want) => expect(got).toEqual(want))).toBe('');
  });
});
