// Recorder-level proof that the default simulator refuses what the evidence says liverec's WBI signing and guest
// identity supply: the same live room, the same config, three runs: both on records; signing off records the video
// (a start asks play info only, which checks a signature only when one is sent: issue 48) while getDanmuInfo is
// refused for the missing signature; identity off records the video while getDanmuInfo is refused for the missing buvid3.
import { describe, expect, it } from 'vitest';
import type { ClientTestSwitches } from '../../src/bilibili/client-options.js';
import { collectLogs } from '../hls/helpers.js';
import { type Harness, startHarness } from '../rooms/harness.js';
import { until } from '../webhook/helpers.js';

const ROOM = 34301;
/** After a -352 every API call waits this long, then keys and identity are fetched again and the call retried. */
const PAUSE_MS = 1000;

const logs = collectLogs();

async function withRun<T>(switches: ClientTestSwitches | undefined, body: (h: Harness) => Promise<T>): Promise<T> {
  logs.lines.length = 0;
  const h = await startHarness({
    rooms: [{ roomId: ROOM, live: true, formats: ['flv'], bitrateKbps: 600 }],
    // Checks every 5 s (the floor), so a refused room is tried again several times within the test.
    global: { TimingApiBlockedPause: PAUSE_MS, TimingCheckInterval: 5 },
    clientTestSwitches: switches,
  });
  try {
    return await body(h);
  } finally {
    await h.close();
  }
}

const opened = (h: Harness): number => h.events.filter((e) => e.EventType === 'FileOpening' && e.EventData.RoomId === ROOM).length;

describe('turning off signing or identity makes the strict simulator refuse exactly the calls that need them', () => {
  it('control: with both on (the default), the room records', async () => {
    await withRun(undefined, async (h) => {
      await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === ROOM, 60_000);
      expect(opened(h)).toBe(1);
      expect(h.sim.refusedHits).toEqual({ signature: 0, buvid3: 0 });
      expect(h.sim.stats().lenient).toBe(false);
    });
  }, 90_000);

  it('signing off: the video records on unsigned play info while getDanmuInfo goes out unsigned and is refused with the compact -352', async () => {
    await withRun({ wbiSign: false }, async (h) => {
      await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === ROOM, 60_000);
      await until(() => h.sim.refusedHits.signature >= 1, 60_000, 'a signature refusal');
      expect(h.sim.refusedHits.buvid3).toBe(0);
      const log = h.sim.refusedLog;
      for (const r of log) {
        expect(r.query).not.toMatch(/[?&]w_rid=/);
        expect(String(r.headers.cookie)).toMatch(/(^|; )buvid3=\S+/); // identity is still on
      }
      expect(log.some((r) => r.path === '/xlive/web-room/v1/index/getDanmuInfo')).toBe(true);
    });
  }, 90_000);

  it('identity off: the video records (no source shows the stream calls needing a buvid3) while getDanmuInfo is refused with the v_voucher -352', async () => {
    await withRun({ guestIdentity: false }, async (h) => {
      await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === ROOM, 60_000);
      await until(() => h.sim.refusedHits.buvid3 >= 1, 60_000, 'a buvid3 refusal');
      expect(h.sim.fingerHits).toBe(0); // no guest identity was fetched
      expect(h.sim.refusedHits.signature).toBe(0);
      for (const r of h.sim.refusedLog) {
        expect(String(r.headers.cookie ?? '')).not.toMatch(/buvid3=/);
        expect(r.path).toBe('/xlive/web-room/v1/index/getDanmuInfo');
      }
    });
  }, 90_000);
});
