// A room whose worker throws is restarted and records again; the other rooms keep recording at full pace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { probe } from '../support/media-tools.js';
import { type Harness, sleep, startHarness } from './harness.js';

const VICTIM = 23001;
const OTHERS = [23002, 23003];

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

  it('restarts the crashed room; the others keep a duration ratio of at least 0.95', async () => {
    const rec = h.service.recorder;
    const media = () => OTHERS.map((id) => rec.findRoom(id)!.recordingStats.sessionMaxTimestamp);
    const workersBefore = rec.workerCount;
    expect(workersBefore).toBe(3); // one thread per room
    const from = h.events.length;
    const mediaBefore = media();
    const t0 = Date.now();
    await rec.injectTestFault(rec.findRoom(VICTIM)!, 'testThrow');

    // The dying worker closed its file validly and the session ended for event consumers.
    // Generous waits: on a loaded 2-core machine the restart (about 2 s idle) can take several times longer.
    const closed = await h.waitEvent('FileClosed', (e) => e.EventData.RoomId === VICTIM, 30_000, from);
    await h.waitEvent('SessionEnded', (e) => e.EventData.RoomId === VICTIM, 30_000, from);
    const p = await probe(`${h.workDir}/${(closed.EventData as FileClosedData).RelativePath}`);
    expect(p.errors).toBe('');
    expect(p.codecs.sort()).toEqual(['aac', 'h264']);
    expect((closed.EventData as FileClosedData).Source?.Kind).toBe('origin'); // the label survives the dying worker

    await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === VICTIM, 30_000, h.events.indexOf(closed));
    expect(rec.findRoom(VICTIM)!.state.recording).toBe(true);

    // Over the whole window the other rooms added media as fast as wall time passed.
    await sleep(Math.max(0, 10_000 - (Date.now() - t0)));
    const wall = Date.now() - t0;
    media().forEach((after, i) => {
      expect((after - mediaBefore[i]!) / wall).toBeGreaterThanOrEqual(0.95);
    });
    for (const id of OTHERS) {
      expect(h.events.filter((e) => e.EventData.RoomId === id && e.EventType === 'SessionEnded')).toHaveLength(0);
    }
    expect(rec.workerCount).toBe(3);
  });
});
