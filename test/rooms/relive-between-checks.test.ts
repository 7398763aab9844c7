// A room stopped by hand that goes offline and live again between two checks (the offline was never seen) records
// the new stream: its new live_time ends the old one, which re-arms auto recording (soak seed 8585 run 21).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { logRing } from '../../src/log/logger.js';
import { type Harness, roomOf, startHarness } from './harness.js';

const ROOM = 27501;
let h: Harness;

beforeAll(async () => {
  // No danmaku socket (its PREPARING/LIVE would tell at once; the model's rooms often have none yet): the danmaku
  // token is refused, so only the checks see the room, every 5 s.
  h = await startHarness({
    rooms: [{ roomId: ROOM, name: 'relive', live: true, bitrateKbps: 400 }], global: { TimingCheckInterval: 5 },
    beforeStart: async (sim) => void sim.addFault(ROOM, { kind: 'api-malformed', variant: 'http-500', count: 1_000_000, path: 'getDanmuInfo' }),
  });
}, 60_000);
afterAll(() => h?.close());

it('records the new stream after a stop, an unseen offline and a new live_time', async () => {
  await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM);
  const room = h.service.recorder.findRoom(ROOM)!;
  await room.stop();
  await h.waitEvent('FileClosed', (e) => roomOf(e) === ROOM);
  const from = h.events.length;
  const lines: string[] = [];
  const off = logRing.onEntry((_id, log) => {
    if (log.RoomId === ROOM) lines.push(String(log['@mt']));
  });
  // Seconds later (live_time has seconds; a new stream starts ≥ 2 s after the old), offline and live again at once:
  // no check can see the offline.
  await new Promise((r) => setTimeout(r, 3100));
  h.sim.setLive(ROOM, false);
  h.sim.setLive(ROOM, true);
  // The stop held the old stream back; the new one records (auto record is on) within a few checks.
  await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM, 45_000, from);
  const kinds = h.events.slice(from).filter((e) => roomOf(e) === ROOM).map((e) => e.EventType);
  expect(kinds.indexOf('StreamEnded')).toBeGreaterThanOrEqual(0);
  expect(kinds.indexOf('StreamEnded')).toBeLessThan(kinds.indexOf('StreamStarted'));
  off();
  expect(lines.some((l) => l.startsWith('the room went offline and live again between two checks'))).toBe(true);
}, 90_000);
