// RawData recording (bytes exactly as received) and a room that exceeds its worker's memory limit.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { probe } from '../support/media-tools.js';
import { type Harness, sleep, startHarness } from './harness.js';

const RAW = 29001;
const HOG = 29002;
const CALM = 29003;

describe('RawData mode and memory limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      rooms: [RAW, HOG, CALM].map((roomId) => ({ roomId, name: `m-${roomId}`, live: true, bitrateKbps: 800 })),
      roomConfig: { [RAW]: { RecordMode: 1 } },
      allowTestFaults: true,
      roomsPerWorker: 1, // the memory limit is per thread: only rooms on their own threads are isolated from the hog
    });
    for (const id of [RAW, HOG, CALM]) await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === id);
  });
  afterAll(() => h?.close());

  it('RawData writes the stream bytes verbatim, reports Duration 0 and no recording stats', async () => {
    await sleep(3000);
    const room = h.service.recorder.findRoom(RAW)!;
    expect(Number.isNaN(room.recordingStats.durationRatio)).toBe(true);
    expect(room.ioStats.networkBytesDownloaded).toBeGreaterThan(0);
    h.sim.setLive(RAW, false);
    const closed = (await h.waitEvent('FileClosed', (e) => e.EventData.RoomId === RAW)).EventData as FileClosedData;
    expect(closed.Duration).toBe(0);
    const file = readFileSync(`${h.workDir}/${closed.RelativePath}`);
    expect(file.length).toBe(closed.FileSize);
    expect(file.length).toBe(h.sim.room(RAW).counters.bytesServed); // every byte served, nothing else
    expect(file.subarray(0, 3).toString()).toBe('FLV');
    expect((await probe(`${h.workDir}/${closed.RelativePath}`)).codecs.sort()).toEqual(['aac', 'h264']);
  });

  it('a room whose worker runs out of memory is restarted; the others are unharmed', async () => {
    const rec = h.service.recorder;
    const from = h.events.length;
    await rec.injectTestFault(rec.findRoom(HOG)!, 'testOom');
    const closed = await h.waitEvent('FileClosed', (e) => e.EventData.RoomId === HOG, 30_000, from);
    expect((await probe(`${h.workDir}/${(closed.EventData as FileClosedData).RelativePath}`)).errors).toBe('');
    await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === HOG, 15_000, h.events.indexOf(closed));
    expect(h.events.slice(from).some((e) => e.EventData.RoomId === CALM && e.EventType !== 'FileOpening')).toBe(false);
    expect(rec.findRoom(CALM)!.state.recording).toBe(true);
  });
});
