// A stream the room already knows is not taken for a new one because the batch detector last saw an older live_time
// (soak seed 1212 run 31: a /stop was undone by a false STREAM_RESTARTED and the room recorded again).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { logRing } from '../../src/log/logger.js';
import { waitFor } from '../simulator/helpers.js';
import { type Harness, roomOf, sleep, startHarness } from './harness.js';

const ROOM = 27601;
const INTERVAL_S = 5;
let h: Harness;

beforeAll(async () => {
  // The danmaku socket tells the room of PREPARING and LIVE at once; the batch detector sees the room every 5 s.
  h = await startHarness({ rooms: [{ roomId: ROOM, name: 'stale', live: true, bitrateKbps: 400 }], global: { TimingCheckInterval: INTERVAL_S } });
}, 60_000);
afterAll(() => h?.close());

it('a stop of a stream seen first by danmaku holds when the batch next sees it', async () => {
  await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM);
  const room = h.service.recorder.findRoom(ROOM)!;
  await waitFor(() => room.state.danmakuConnected, 30_000, 'danmaku connected');
  // A batch round has seen the stream's live_time.
  await sleep((INTERVAL_S + 1) * 1000);
  // Offline and live again in a later second: the danmaku socket tells the room, the batch detector sees neither.
  h.sim.setLive(ROOM, false);
  await sleep(1100);
  const restarted = h.events.length;
  h.sim.setLive(ROOM, true);
  await h.waitEvent('StreamStarted', (e) => roomOf(e) === ROOM, 20_000, restarted);
  await room.stop();
  const lines: string[] = [];
  const off = logRing.onEntry((_id, log) => {
    if (log.RoomId === ROOM) lines.push(String(log['@mt']));
  });
  const afterStop = h.events.length;
  // Three batch rounds: each sees the new live_time, which its last answer (the old stream's) does not match.
  await sleep(3 * INTERVAL_S * 1000);
  off();
  const after = h.events.slice(afterStop).filter((e) => roomOf(e) === ROOM).map((e) => e.EventType);
  expect(after).not.toContain('FileOpening');
  expect(after).not.toContain('StreamEnded');
  expect(lines.filter((l) => l.startsWith('the room went offline and live again between two checks'))).toEqual([]);
  expect(room.state.recording).toBe(false);
}, 120_000);
