// Several room actors per worker (--rooms-per-worker): one actor and one stream per room; a crash stays in its worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, sleep, startHarness } from './harness.js';

const IDS = [27001, 27002, 27003, 27004, 27005, 27006];

describe('rooms sharing worker threads', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      rooms: IDS.map((roomId) => ({ roomId, name: `shared-${roomId}`, live: true, bitrateKbps: 800 })),
      roomsPerWorker: 3,
      allowTestFaults: true,
    });
    for (const id of IDS) await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === id);
  });
  afterAll(() => h?.close());

  it('hosts 3 rooms per worker, each with exactly one actor and one stream connection', async () => {
    expect(h.service.recorder.workerCount).toBe(2);
    await sleep(3000);
    for (const id of IDS) {
      expect(h.sim.room(id).counters.streamConnections, `room ${id}`).toBe(1);
      expect(h.events.filter((e) => e.EventType === 'SessionStarted' && e.EventData.RoomId === id)).toHaveLength(1);
    }
  });

  it('a crash restarts the rooms of that worker only', async () => {
    const rec = h.service.recorder;
    const from = h.events.length;
    await rec.injectTestFault(rec.findRoom(IDS[0]!)!, 'testThrow');
    // The first three rooms share the crashed worker: each ends its session and records again.
    for (const id of IDS.slice(0, 3)) {
      await h.waitEvent('SessionEnded', (e) => e.EventData.RoomId === id, 10_000, from);
      await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === id, 10_000, from);
    }
    for (const id of IDS.slice(3)) {
      expect(h.events.slice(from).some((e) => e.EventData.RoomId === id && e.EventType === 'SessionEnded')).toBe(false);
    }
    expect(rec.workerCount).toBe(2);
  });
});
