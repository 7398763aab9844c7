// Recovery from stream faults and manual control: new files in the same session, reconnect within TimingStreamRetry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData, RecorderEvent } from '../../src/events/types.js';
import { probe } from '../support/media-tools.js';
import { FAST, type Harness, sleep, startHarness } from './harness.js';

const ROOM = 21001;
const opened = (h: Harness) => h.events.filter((e) => e.EventType === 'FileOpening' && e.EventData.RoomId === ROOM);
const sessionOf = (e: RecorderEvent): string => (e.EventData as { SessionId: string }).SessionId;

describe('stream faults and manual control', () => {
  let h: Harness;
  beforeAll(async () => {
    // A dropped connection continues its file when RecordFillGapsFromHls is on (test/gaps); off, as here, each
    // reconnect opens a new file, which is what these cases check.
    h = await startHarness({ rooms: [{ roomId: ROOM, name: 'faults', live: true, bitrateKbps: 1000 }], roomConfig: { [ROOM]: { RecordFillGapsFromHls: false } } });
    await h.waitEvent('FileOpening');
    await sleep(1500);
  });
  afterAll(() => h?.close());

  // Each fault must end the current file and reconnect into a new one quickly, keeping the session.
  it.each([
    ['stream-cut (mid-tag)', { kind: 'stream-cut', afterMs: 300 }],
    ['stall (watchdog)', { kind: 'stall', afterMs: 300 }],
    ['header-change mid-stream (new SPS and resolution, no reconnect)', { kind: 'header-change', midStream: true }],
  ])('%s: a new file in the same session', async (_name, fault) => {
    const before = opened(h).length;
    const from = h.events.length;
    h.sim.addFault(ROOM, fault);
    const t0 = Date.now();
    const closed = await h.waitEvent('FileClosed', undefined, 15_000, from);
    const next = await h.waitEvent('FileOpening', undefined, 15_000, h.events.indexOf(closed));
    const gap = Date.now() - t0;
    expect(opened(h).length).toBe(before + 1);
    expect(sessionOf(next)).toBe(sessionOf(closed));
    // Stall needs the watchdog first; then the reconnect itself must come within TimingStreamRetry.
    const allowance = (fault.kind === 'stall' ? Number(FAST.TimingWatchdogTimeout) : 1000) + Number(FAST.TimingStreamRetry) + 3000;
    expect(gap).toBeLessThan(allowance);
    const data = closed.EventData as FileClosedData;
    const p = await probe(`${h.workDir}/${data.RelativePath}`);
    expect(p.errors).toBe('');
    expect(p.codecs.sort()).toEqual(['aac', 'h264']);
    if (fault.kind === 'header-change') {
      await sleep(2000);
      const connections = h.sim.room(ROOM).counters.streamConnections;
      await h.service.recorder.findRoom(ROOM)!.split(); // close the new file to probe it
      const second = await h.waitEvent('FileClosed', undefined, 10_000, h.events.indexOf(next));
      const q = await probe(`${h.workDir}/${(second.EventData as FileClosedData).RelativePath}`);
      expect(q.errors).toBe('');
      expect(q.resolution).not.toBe(p.resolution);
      expect(h.sim.room(ROOM).counters.streamConnections).toBe(connections); // the pipeline split, not a reconnect
    }
    await sleep(1500);
  });

  it('manual split, stop and start', async () => {
    const room = h.service.recorder.findRoom(ROOM)!;
    let from = h.events.length;
    await room.split();
    await h.waitEvent('FileClosed', undefined, 10_000, from);
    const afterSplit = await h.waitEvent('FileOpening', undefined, 10_000, from);
    await sleep(1500);

    from = h.events.length;
    await room.stop();
    expect(room.state.autoRecordForThisSession).toBe(false);
    const ended = await h.waitEvent('SessionEnded', undefined, 10_000, from);
    expect(sessionOf(ended)).toBe(sessionOf(afterSplit));
    await sleep(2500); // still live, but stopped: no new session may start
    expect(h.events.slice(from).some((e) => e.EventType === 'SessionStarted')).toBe(false);
    expect(room.state).toMatchObject({ recording: false, streaming: true, autoRecordForThisSession: false });

    from = h.events.length;
    await room.start();
    const started = await h.waitEvent('SessionStarted', undefined, 10_000, from);
    expect(sessionOf(started)).not.toBe(sessionOf(ended));
    await h.waitEvent('FileOpening', undefined, 10_000, from);
    expect(room.state.recording).toBe(true);
  });
});
