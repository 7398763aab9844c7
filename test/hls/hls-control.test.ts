// HLS rooms under control and failure: manual split, TS discontinuity, playlist 404 / slow segment, and a crashed worker's .mp4.
import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { collectLogs, decode } from './helpers.js';

const TS = 23401;
const CRASH = 23402;

describe('HLS: split, TS discontinuity, transient errors, worker crash', () => {
  let h: Harness;
  let logs: ReturnType<typeof collectLogs>;
  const closed = (roomId: number): FileClosedData[] =>
    h.events.filter((e) => e.EventType === 'FileClosed' && roomOf(e) === roomId).map((e) => e.EventData as FileClosedData);

  beforeAll(async () => {
    logs = collectLogs();
    h = await startHarness({
      rooms: [{ roomId: TS, live: true, formats: ['ts'] }, { roomId: CRASH, live: true, formats: ['fmp4'] }],
      allowTestFaults: true,
      roomsPerWorker: 1,
    });
    for (const id of [TS, CRASH]) await h.waitEvent('FileOpening', (e) => roomOf(e) === id, 30_000);
    await sleep(3000);
  }, 60_000);
  afterAll(async () => {
    logs?.stop();
    await h?.close();
  });

  it('TS: manual split and a discontinuity start new files; playlist 404s and a slow segment lose nothing', async () => {
    let from = h.events.length;
    await h.service.recorder.findRoom(TS)!.split();
    await h.waitEvent('FileOpening', (e) => roomOf(e) === TS, 15_000, from);
    await sleep(3000);
    from = h.events.length;
    h.sim.addFault(TS, { kind: 'init-change' });
    await h.waitEvent('FileOpening', (e) => roomOf(e) === TS, 15_000, from);
    await sleep(2000);
    h.sim.addFault(TS, { kind: 'playlist-404', count: 2 });
    h.sim.addFault(TS, { kind: 'slow-segment', count: 1, delayMs: 1200 });
    await sleep(5000);
    h.sim.setLive(TS, false);
    await h.waitEvent('SessionEnded', (e) => roomOf(e) === TS, 30_000);
    const files = closed(TS);
    if (files.length !== 3) console.log(logs.match('', TS).map((l) => `${l['@mt']} ${JSON.stringify(l)}`).join('\n'));
    expect(files).toHaveLength(3);
    let frames = 0;
    const resolutions: string[] = [];
    for (const f of files) {
      expect(f.RelativePath.endsWith('.ts')).toBe(true);
      const d = await decode(`${h.workDir}/${f.RelativePath}`);
      expect(d.errors).toBe('');
      expect(d.codecs).toEqual(['aac', 'h264']);
      frames += d.videoFrames;
      resolutions.push(d.resolution);
    }
    expect(resolutions).toEqual(['640x360', '640x360', '854x480']);
    expect(frames / 25).toBeCloseTo(h.sim.room(TS).counters.hlsMediaMsServed / 1000, 0);
    expect(logs.match('hls connection summary', TS).at(-1)).toMatchObject({ gaps: 0 });
  });

  it('a crashed worker: the main thread closes the .mp4 (FileClosed with its size and duration), which plays', async () => {
    const from = h.events.length;
    await h.service.recorder.injectTestFault(h.service.recorder.findRoom(CRASH)!, 'testCrash').catch(() => undefined);
    const ev = await h.waitEvent('FileClosed', (e) => roomOf(e) === CRASH, 15_000, from);
    const f = ev.EventData as FileClosedData;
    const path = `${h.workDir}/${f.RelativePath}`;
    expect(f.FileSize).toBe(statSync(path).size);
    const d = await decode(path);
    expect(d.errors).toBe('');
    expect(d.codecs).toEqual(['aac', 'h264']);
    expect(Math.abs(f.Duration - d.duration)).toBeLessThan(0.1);
  });
});
