// HLS-only rooms (fMP4 and TS) are recorded: playable h264 + aac files whose duration matches the media served.
import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { decode } from './helpers.js';

const FMP4 = 23001;
const TS = 23002;
const HEVC = 23003;

describe('HLS-only rooms', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rooms: [
      { roomId: FMP4, name: 'fmp4-only', live: true, formats: ['fmp4'] },
      { roomId: TS, name: 'ts-only', live: true, formats: ['ts'] },
      { roomId: HEVC, name: 'hevc-fmp4', live: true, formats: ['fmp4'], hevcOnly: true },
    ] });
    await h.waitEvent('FileOpening', (e) => roomOf(e) === FMP4, 30_000);
    await h.waitEvent('FileOpening', (e) => roomOf(e) === TS, 30_000);
    await h.waitEvent('FileOpening', (e) => roomOf(e) === HEVC, 30_000);
    await sleep(8000);
    // Going offline ends the playlist; the last segment taken is the last one written.
    h.sim.setLive(FMP4, false);
    h.sim.setLive(TS, false);
    h.sim.setLive(HEVC, false);
    for (const id of [FMP4, TS, HEVC]) await h.waitEvent('SessionEnded', (e) => roomOf(e) === id, 30_000);
  }, 90_000);
  afterAll(() => h?.close());

  it.each([[FMP4, '.mp4', 'h264'], [TS, '.ts', 'h264'], [HEVC, '.mp4', 'hevc']])('room %i: files %s, %s + aac, clean decode, duration within 2 percent of the media served', async (roomId, ext, video) => {
    const closed = h.events.filter((e) => e.EventType === 'FileClosed' && roomOf(e) === roomId).map((e) => e.EventData as FileClosedData);
    expect(closed.length).toBe(1);
    const file = closed[0]!;
    expect(file.RelativePath.endsWith(ext)).toBe(true);
    const path = `${h.workDir}/${file.RelativePath}`;
    expect(file.FileSize).toBe(statSync(path).size);
    const d = await decode(path);
    expect(d.errors).toBe('');
    expect(d.codecs).toEqual(['aac', video]);
    const served = h.sim.room(roomId).counters.hlsMediaMsServed / 1000;
    expect(served).toBeGreaterThan(5);
    expect(Math.abs(d.duration - served) / served).toBeLessThan(0.02);
    expect(Math.abs(file.Duration - served) / served).toBeLessThan(0.02);
    // No segment fetched twice.
    expect(h.sim.room(roomId).counters.hlsSegmentsServed).toBe(Math.round(served / 0.96));
  });
});
