// A recording that starts 20 s after the stream did begins at the stream's start (the CDN keeps 60 s of segments).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData, FileOpeningData } from '../../src/events/types.js';
import type { SimFormat } from '../../src/simulator/room.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { breaks, expectClipFrames, seiTimestamps, seiTimestampsMp4 } from './helpers.js';

describe.each([
  { name: 'FLV', roomId: 23821, formats: ['flv', 'fmp4'] as SimFormat[], protocol: 'flv', sei: seiTimestamps },
  { name: 'HLS fMP4', roomId: 23822, formats: ['fmp4'] as SimFormat[], protocol: 'hls-fmp4', sei: seiTimestampsMp4 },
])('late start over $name', ({ roomId, formats, protocol, sei: read }) => {
  let h: Harness;
  let opening: FileOpeningData;
  let closed: FileClosedData;
  /** HLS requests while the file was being written (FLV: none, nothing polls a healthy connection). */
  let hlsWhileRecording = 0;
  beforeAll(async () => {
    h = await startHarness({
      rooms: [{ roomId, live: true, formats, liveStream: { streamAgeSec: 20, hlsRetentionSec: 60 } }],
      roomConfig: { [roomId]: { RecordingProtocol: protocol } },
    });
    opening = (await h.waitEvent('FileOpening', (e) => roomOf(e) === roomId, 60_000)).EventData as FileOpeningData;
    const hls = (): number => h.sim.room(roomId).counters.hlsPlaylistRequests + h.sim.room(roomId).counters.hlsSegmentRequests;
    await sleep(1500); // a request already on its way when the plan stopped the HLS reading may still land
    const before = hls();
    await sleep(2500);
    hlsWhileRecording = hls() - before;
    h.sim.setLive(roomId, false);
    closed = (await h.waitEvent('FileClosed', (e) => roomOf(e) === roomId, 60_000)).EventData as FileClosedData;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('starts within one GOP of the stream start and says how far back it reached', async () => {
    const path = `${h.workDir}/${closed.RelativePath}`;
    const sei = read(path);
    expect(sei[0]!).toBeLessThanOrEqual(960);
    expect(breaks(sei)).toEqual([]);
    expect(sei.at(-1)!).toBeGreaterThan(20_000);
    expect(opening.BackfillMs).toBeGreaterThan(18_000);
    expect(closed.Gaps ?? []).toEqual([]);
    expect(await expectClipFrames(path, sei, (got, want) => expect(got).toEqual(want))).toBe('');
  });

  it.runIf(protocol === 'flv')('reaches back with the play info the stream came from, and stops reading HLS once the file started', () => {
    expect(h.sim.room(roomId).counters.apiHits.getRoomPlayInfo).toBe(1);
    expect(hlsWhileRecording).toBe(0);
  });
});
