// Recording end to end against the simulator: live → session → files → offline, with the exact event order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { probe } from '../support/media-tools.js';
import { type Harness, sleep, startHarness } from './harness.js';

describe('a room going live and offline', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rooms: [{ roomId: 20001, shortId: 7, name: 'life', title: 'lifecycle', live: true, bitrateKbps: 1500 }], record: [7] });
  });
  afterAll(() => h?.close());

  it('records into a valid file and ends the session when the room goes offline', async () => {
    await h.waitEvent('FileOpening');
    const room = h.service.recorder.findRoom(20001)!;
    expect(room.roomId).toBe(20001); // configured by short id 7, resolved to the real id
    expect(room.state).toMatchObject({ shortId: 7, name: 'life', recording: true, streaming: true });
    await sleep(6000);
    expect(room.recordingStats.durationRatio).toBeGreaterThan(0.5);
    expect(room.ioStats.streamHost).toMatch(/^(127\.0\.0\.1|localhost):\d+$/);
    h.sim.setLive(20001, false);
    await h.waitEvent('SessionEnded');
    await h.waitEvent('StreamEnded');
    const types = h.events.map((e) => e.EventType);
    expect(types.filter((t) => t !== 'StreamEnded')).toEqual(['StreamStarted', 'SessionStarted', 'FileOpening', 'FileClosed', 'SessionEnded']);
    expect(types.indexOf('StreamEnded')).toBeGreaterThan(types.indexOf('SessionStarted'));
    const ids = new Set(h.events.flatMap((e) => ('SessionId' in e.EventData ? [e.EventData.SessionId] : [])));
    expect(ids.size).toBe(1);
    expect(room.state.recording).toBe(false);
    expect(room.state.autoRecordForThisSession).toBe(true);
    expect(Number.isNaN(room.recordingStats.durationRatio)).toBe(true);
    expect(room.ioStats.streamHost).toBeNull();

    const closed = h.events.find((e) => e.EventType === 'FileClosed')!.EventData as FileClosedData;
    const p = await probe(`${h.workDir}/${closed.RelativePath}`);
    expect(p.errors).toBe('');
    expect(p.codecs.sort()).toEqual(['aac', 'h264']);
    expect(closed.Duration).toBeGreaterThan(5);
    expect(Math.abs(p.duration - closed.Duration) / closed.Duration).toBeLessThan(0.02);
    // One connection, ended cleanly by the simulator: the file holds exactly the media time it served.
    const served = h.sim.room(20001).counters.mediaMsServed / 1000;
    expect(h.sim.room(20001).counters.streamConnections).toBe(1);
    expect(Math.abs(p.duration - served) / served).toBeLessThan(0.02);
  });
});
