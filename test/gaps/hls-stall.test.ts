// An HLS fMP4 room whose playlist stalls for 8 s: the segments it skipped are fetched into the same file, no gap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData, RecorderEvent } from '../../src/events/types.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { collectLogs } from '../hls/helpers.js';
import { breaks, expectClipFrames, seiTimestampsMp4 } from './helpers.js';

const ROOM = 23831;
const pathOf = (e: RecorderEvent): string => (e.EventData as { RelativePath: string }).RelativePath;

describe('HLS playlist stall', () => {
  let h: Harness;
  let closed: FileClosedData[];
  const logs = collectLogs();
  beforeAll(async () => {
    h = await startHarness({
      rooms: [{ roomId: ROOM, live: true, formats: ['fmp4'], liveStream: { hlsRetentionSec: 60 } }],
      roomConfig: { [ROOM]: { RecordingProtocol: 'hls-fmp4' } },
    });
    await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM, 40_000);
    await sleep(4000);
    h.sim.addFault(ROOM, { kind: 'playlist-stall', seconds: 8 });
    await sleep(16_000);
    h.sim.setLive(ROOM, false);
    await h.waitEvent('SessionEnded', (e) => roomOf(e) === ROOM, 60_000);
    closed = h.events.filter((e) => e.EventType === 'FileClosed').map((e) => e.EventData as FileClosedData);
  }, 180_000);
  afterAll(async () => {
    logs.stop();
    await h?.close();
  });

  it('lost the connection to the stall and reconnected', () => {
    expect(logs.match('stream connection ended: error', ROOM).length).toBeGreaterThanOrEqual(1);
  });

  it('writes one .mp4 with every frame once, in order, and no gap', async () => {
    expect(h.events.filter((e) => e.EventType === 'FileOpening').map(pathOf)).toHaveLength(1);
    expect(closed).toHaveLength(1);
    expect(closed[0]!.Gaps ?? []).toEqual([]);
    const path = `${h.workDir}/${closed[0]!.RelativePath}`;
    const sei = seiTimestampsMp4(path);
    expect(sei.length).toBeGreaterThan(400);
    expect(breaks(sei)).toEqual([]);
    expect(await expectClipFrames(path, sei, (got, want) => expect(got).toEqual(want))).toBe('');
  });
});
