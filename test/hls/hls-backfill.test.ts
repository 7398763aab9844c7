// A segment slower than the live window: the segments that left the playlist meanwhile are fetched by their numbered URIs.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { collectLogs, decode } from './helpers.js';

const ROOM = 23111;

describe('HLS gap backfill (fMP4)', () => {
  let h: Harness;
  let logs: ReturnType<typeof collectLogs>;
  let closed = false;

  beforeAll(async () => {
    logs = collectLogs();
    // The watchdog outlasts the slow segment, so it is waited for rather than fetched again.
    h = await startHarness({ rooms: [{ roomId: ROOM, live: true, formats: ['fmp4'] }], global: { TimingWatchdogTimeout: 15_000 } });
    await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM, 30_000);
    await sleep(3000);
    // 8 s for a segment of 1 s, with a 6-segment window: at least two later segments leave the playlist meanwhile.
    h.sim.addFault(ROOM, { kind: 'slow-segment', count: 1, delayMs: 8000 });
    const deadline = Date.now() + 40_000;
    while (logs.match('by their numbered URIs', ROOM).length === 0 && Date.now() < deadline) await sleep(250);
    await sleep(3000);
    await h.close();
    closed = true;
    logs.stop();
  }, 120_000);
  afterAll(() => (closed ? undefined : h?.close()));

  it('counts no gap, fetches at least two segments by their guessed URIs, and keeps one file', () => {
    expect(logs.match('by their numbered URIs', ROOM)).toHaveLength(1);
    expect(logs.match('gap:', ROOM)).toHaveLength(0);
    const summary = logs.match('hls connection summary', ROOM);
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatchObject({ gaps: 0 });
    expect(summary[0]!.backfilled).toBeGreaterThanOrEqual(2);
    const files = readdirSync(h.workDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mp4'));
    expect(files).toHaveLength(1);
  });

  it('the file decodes cleanly and holds every segment served (within 2 percent and the one in flight at close)', async () => {
    const [file] = readdirSync(h.workDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mp4'));
    const d = await decode(join(h.workDir, file!));
    expect(d.errors).toBe('');
    expect(d.codecs).toEqual(['aac', 'h264']);
    const served = h.sim.room(ROOM).counters.hlsMediaMsServed / 1000;
    // The segment in flight when the service closes is counted as served but not written: one 1-s segment of slack
    // (a loaded machine closed with one in flight: 4.5 % of 22 s).
    expect(Math.abs(d.videoFrames / 25 - served)).toBeLessThan(1 + 0.02 * served);
  });
});
