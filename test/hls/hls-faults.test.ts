// HLS faults on fMP4 rooms: init change → new file; segment 404 → one counted gap; stale playlist → reconnect; sequence reset → no repeats; corrupt segment → refetched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData, RecorderEvent } from '../../src/events/types.js';
import { FAST, type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { collectLogs, decode } from './helpers.js';

const INIT = 23101;
const GAP = 23102;
const STALE = 23103;
const RESET = 23104;
const CORRUPT = 23105;
const ROOMS = [INIT, GAP, STALE, RESET, CORRUPT];
const FAULTS: Record<number, object> = {
  [INIT]: { kind: 'init-change' }, [GAP]: { kind: 'segment-404' }, [STALE]: { kind: 'playlist-stale' }, [RESET]: { kind: 'sequence-reset' },
  [CORRUPT]: { kind: 'segment-corrupt', count: 1 },
};

const sessionOf = (e: RecorderEvent): string => (e.EventData as { SessionId: string }).SessionId;

describe('HLS faults (fMP4)', () => {
  let h: Harness;
  let logs: ReturnType<typeof collectLogs>;
  const faultAt: Record<number, number> = {};
  let staleReconnectMs = Number.NaN;
  let playInfoBefore = 0;
  /** What the client said about its gaps and failed fetches: the message of a failed gap count. */
  const gapLines = (roomId: number): string =>
    logs.match('', roomId).filter((l) => /gap|segment \d/.test(String(l['@mt']))).map((l) => `${l['@t']} ${l['@mt']}`).join('; ');
  const closed = (roomId: number): FileClosedData[] =>
    h.events.filter((e) => e.EventType === 'FileClosed' && roomOf(e) === roomId).map((e) => e.EventData as FileClosedData);

  beforeAll(async () => {
    logs = collectLogs();
    // STALE checks the reconnect into a new file: RecordFillGapsFromHls off (with it on the file continues, see test/gaps).
    h = await startHarness({ rooms: ROOMS.map((roomId) => ({ roomId, live: true, formats: ['fmp4' as const] })), roomConfig: { [STALE]: { RecordFillGapsFromHls: false } } });
    for (const id of ROOMS) await h.waitEvent('FileOpening', (e) => roomOf(e) === id, 30_000);
    await sleep(6000); // every connection is healthy (> 5 s) before the faults
    playInfoBefore = h.sim.room(STALE).counters.apiHits.getRoomPlayInfo;
    const from = h.events.length;
    for (const id of ROOMS) {
      faultAt[id] = Date.now();
      h.sim.addFault(id, FAULTS[id]);
    }
    const reopened = await h.waitEvent('FileOpening', (e) => roomOf(e) === STALE, 30_000, from);
    staleReconnectMs = Date.parse(reopened.EventTimestamp) - faultAt[STALE]!;
    await h.waitEvent('FileOpening', (e) => roomOf(e) === INIT, 30_000, from);
    await sleep(5000);
    for (const id of ROOMS) h.sim.setLive(id, false);
    for (const id of ROOMS) await h.waitEvent('SessionEnded', (e) => roomOf(e) === id, 30_000);
    logs.stop();
  }, 120_000);
  afterAll(() => h?.close());

  it('every file decodes cleanly as h264 + aac, and the files hold the media served (within 2 percent)', async () => {
    for (const id of ROOMS) {
      let sum = 0;
      for (const f of closed(id)) {
        const d = await decode(`${h.workDir}/${f.RelativePath}`);
        expect(d.errors, f.RelativePath).toBe('');
        expect(d.codecs).toEqual(['aac', 'h264']);
        expect(Math.abs(d.duration - f.Duration)).toBeLessThan(0.1);
        sum += d.videoFrames / 25; // frames, not the span: a gap leaves a hole in the file's timeline
      }
      const served = h.sim.room(id).counters.hlsMediaMsServed / 1000;
      expect(Math.abs(sum - served) / served, `room ${id}`).toBeLessThan(0.02);
    }
  });

  it('init-change: a new file with the new resolution, in the same session', async () => {
    const files = closed(INIT);
    expect(files.length).toBe(2);
    const res = await Promise.all(files.map(async (f) => (await decode(`${h.workDir}/${f.RelativePath}`)).resolution));
    expect(res).toEqual(['640x360', '854x480']);
    expect(new Set(h.events.filter((e) => e.EventType === 'FileClosed' && roomOf(e) === INIT).map(sessionOf)).size).toBe(1);
  });

  it('segment-404: exactly one counted gap, and the same file goes on', () => {
    expect(logs.match('could not be fetched', GAP)).toHaveLength(1);
    const summary = logs.match('hls connection summary', GAP);
    expect(summary.at(-1)).toMatchObject({ gaps: 1 });
    expect(closed(GAP)).toHaveLength(1);
  });

  it('playlist-stale: reconnects (new play info, new file, same session) within the stall time plus the watchdog', () => {
    expect(h.sim.room(STALE).counters.apiHits.getRoomPlayInfo).toBeGreaterThan(playInfoBefore);
    // Stall = 3 target durations (3 s); then an immediate reconnect after a healthy connection.
    expect(staleReconnectMs).toBeLessThan(3000 + Number(FAST.TimingWatchdogTimeout) + 3000);
    expect(closed(STALE)).toHaveLength(2);
    expect(logs.match('hls connection summary', STALE).map((l) => l.gaps), gapLines(STALE)).toEqual([0, 0]);
  });

  it('sequence-reset: the segments listed again are not written twice, and nothing is missed', () => {
    expect(logs.match('numbering restarted', RESET).length).toBeGreaterThanOrEqual(1);
    const summary = logs.match('hls connection summary', RESET).at(-1)!;
    expect(summary.repeatsDropped).toBeGreaterThanOrEqual(1);
    expect(summary.gaps, gapLines(RESET)).toBe(0);
    expect(closed(RESET)).toHaveLength(1);
  });

  it('segment-corrupt: the CRC-32 check refuses the damaged copy once, the retry is kept, and nothing is missed', () => {
    const refused = logs.match('the playlist says', CORRUPT);
    expect(refused, gapLines(CORRUPT)).toHaveLength(1);
    expect(refused[0]).toMatchObject({ code: 'HLS_CHECKSUM', attempt: 1 });
    expect(logs.match('hls connection summary', CORRUPT).at(-1)!.gaps, gapLines(CORRUPT)).toBe(0);
    expect(closed(CORRUPT)).toHaveLength(1);
  });
});
