// A room whose worker throws is restarted and records again; the other rooms keep recording at full pace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { probe } from '../support/media-tools.js';
import { type Harness, sleep, startHarness } from './harness.js';

const VICTIM = 23001;
const OTHERS = [23002, 23003];
/** The simulator's clips have a keyframe every 24 frames (about 1 s): a generous bound for the GOP still held. */
const GOP_MS = 4000;

describe('failure isolation between rooms', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      rooms: [VICTIM, ...OTHERS].map((roomId) => ({ roomId, name: `iso-${roomId}`, live: true, bitrateKbps: 1000 })),
      allowTestFaults: true,
      roomsPerWorker: 1, // isolation between threads: the default placement puts up to 32 rooms on one thread
    });
    for (const id of [VICTIM, ...OTHERS]) await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === id);
    await sleep(4000);
  });
  afterAll(() => h?.close());

  it('restarts the crashed room; the others record on without a break and lose nothing', async () => {
    const rec = h.service.recorder;
    const media = () => OTHERS.map((id) => rec.findRoom(id)!.recordingStats.sessionMaxTimestamp);
    const served = () => OTHERS.map((id) => h.sim.room(id).counters.mediaMsServed);
    const workersBefore = rec.workerCount;
    expect(workersBefore).toBe(3); // one thread per room
    const from = h.events.length;
    const mediaBefore = media();
    const servedBefore = served();
    const t0 = Date.now();
    await rec.injectTestFault(rec.findRoom(VICTIM)!, 'testThrow');

    // The dying worker closed its file validly and the session ended for event consumers.
    // Generous waits: on a loaded 2-core machine the restart (about 2 s idle) can take several times longer.
    const closed = await h.waitEvent('FileClosed', (e) => e.EventData.RoomId === VICTIM, 30_000, from);
    await h.waitEvent('SessionEnded', (e) => e.EventData.RoomId === VICTIM, 30_000, from);
    const p = await probe(`${h.workDir}/${(closed.EventData as FileClosedData).RelativePath}`);
    expect(p.errors).toBe('');
    expect(p.codecs.sort()).toEqual(['aac', 'h264']);
    // The label survives the dying worker: the FileClosed says what its FileOpening said.
    const opening = h.events.find((e) => e.EventType === 'FileOpening' && (e.EventData as FileClosedData).RelativePath === (closed.EventData as FileClosedData).RelativePath)!;
    expect((closed.EventData as FileClosedData).Source?.Kind).toBeDefined();
    expect((closed.EventData as FileClosedData).Source?.Kind).toBe((opening.EventData as FileClosedData).Source?.Kind);

    await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === VICTIM, 30_000, h.events.indexOf(closed));
    expect(rec.findRoom(VICTIM)!.state.recording).toBe(true);

    // Over the whole window the other rooms lost nothing: everything the simulator served them in it reaches their
    // files (counted against what was served, not the wall clock: a loaded machine slows the simulator too). The
    // newest GOP is held until it completes, so the recorded media may trail the served by up to one GOP.
    await sleep(Math.max(0, 10_000 - (Date.now() - t0)));
    const servedInWindow = served().map((s, i) => s - servedBefore[i]!);
    expect(Math.min(...servedInWindow)).toBeGreaterThan(0);
    const caughtUp = (): boolean => media().every((m, i) => m - mediaBefore[i]! >= servedInWindow[i]! - GOP_MS);
    for (const end = Date.now() + 30_000; !caughtUp() && Date.now() < end;) await sleep(100);
    expect(caughtUp(), `recorded ${media().map((m, i) => m - mediaBefore[i]!)} ms of the ${servedInWindow} ms served`).toBe(true);
    for (const id of OTHERS) {
      // One session and one file, never interrupted, and no gap.
      expect(h.events.filter((e) => e.EventData.RoomId === id && e.EventType === 'SessionEnded')).toHaveLength(0);
      expect(h.events.filter((e) => e.EventData.RoomId === id && e.EventType === 'FileOpening')).toHaveLength(1);
      expect(rec.findRoom(id)!.state.sessionGaps).toEqual([]);
    }
    expect(rec.workerCount).toBe(3);
  });
});
