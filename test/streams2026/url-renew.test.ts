// A stream URL is renewed before its `expires` passes (the service's last about an hour): a fresh URL is resolved and
// the new connection continues the same file (the gap filler joins it), in the same session.
import { describe, expect, it } from 'vitest';
import { collectLogs } from '../hls/helpers.js';
import { startHarness } from '../rooms/harness.js';
import { until } from '../webhook/helpers.js';

const ROOM = 47301;
const logs = collectLogs();

describe('stream URL renewal', () => {
  it('re-resolves the URL before expires (TTL 62 s: after 5 s) and keeps writing the same file', async () => {
    const h = await startHarness({ rooms: [{ roomId: ROOM, live: true, formats: ['flv', 'fmp4'], bitrateKbps: 600, streamTtlSec: 62 }] });
    try {
      await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === ROOM, 60_000);
      const room = h.sim.room(ROOM);
      await until(() => room.counters.streamConnections >= 2, 60_000, 'a second stream connection');
      const renewals = logs.lines.filter((l) => l.RoomId === ROOM && l.code === 'STREAM_URL_RENEW');
      expect(renewals.length).toBeGreaterThanOrEqual(1);
      // A fresh URL each time: the second connection's expires lies after the first one's.
      const flv = room.streamLog.filter((r) => r.path.endsWith('.flv')).map((r) => Number(new URLSearchParams(r.query).get('expires')));
      expect(flv.length).toBeGreaterThanOrEqual(2);
      expect(flv[1]!).toBeGreaterThanOrEqual(flv[0]!);
      expect(room.counters.apiHits.getRoomPlayInfo).toBeGreaterThanOrEqual(2);
      // Same session, same file.
      await new Promise((r) => setTimeout(r, 1500));
      expect(h.events.filter((e) => e.EventType === 'FileOpening' && e.EventData.RoomId === ROOM).length).toBe(1);
      expect(h.events.filter((e) => e.EventType === 'SessionStarted' && e.EventData.RoomId === ROOM).length).toBe(1);
    } finally {
      await h.close();
    }
  }, 120_000);
});
