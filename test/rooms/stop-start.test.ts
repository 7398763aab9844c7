// A start sent while a stopped session is still closing its file (here: a late start waiting for the HLS window) records again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';

const ROOM = 20101;

describe('stop, then start at once', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rooms: [{ roomId: ROOM, live: true, bitrateKbps: 400 }], record: [ROOM] });
  });
  afterAll(() => h?.close());

  const until = async (check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> => {
    const end = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('a start that arrives while the stopped session winds down starts the next session', async () => {
    await h.waitEvent('SessionStarted');
    const room = h.service.recorder.findRoom(ROOM)!;
    const sim = h.sim.rooms.get(ROOM)!;
    // Live for a minute: each new session begins with a late start that waits for the HLS window before writing.
    sim.liveStartTime -= 60;
    await room.stop();
    await h.waitEvent('SessionEnded');
    await until(() => sim.media.size === 0, 'the first connection to close');
    const from = h.events.length;
    await room.start();
    await h.waitEvent('SessionStarted', () => true, 20_000, from);
    await until(() => sim.media.size === 1, 'the second connection');
    // Stopped while its first keyframe waits for the plan; the start follows as soon as the connection is gone.
    await room.stop();
    await until(() => sim.media.size === 0, 'the second connection to close');
    const before = h.events.length;
    await room.start();
    await h.waitEvent('SessionStarted', () => true, 20_000, before);
    await until(() => sim.media.size === 1 && room.state.recording, 'recording again');
    expect(room.state).toMatchObject({ recording: true, streaming: true, autoRecordForThisSession: true });
  }, 60_000);
});
