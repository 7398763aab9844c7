// Issue 36, HLS rows: a hostile CDN (trun bomb, deep moof, endless/huge segment, huge init, all-404, huge target duration)
// beside a healthy room on the same thread: the process stays up, memory stays bounded, the healthy room keeps pace,
// every hostile room reconnects or ends with closed valid files.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { collectLogs, decode } from '../hls/helpers.js';
import { type HlsAttack, type HostileHls, startHostileHls } from './hostile-hls.js';

const HEALTHY = 36001;
const ATTACKS = new Map<number, HlsAttack>([
  [36002, 'trun-bomb'], [36003, 'deep-moof'], [36004, 'endless-segment'], [36005, 'huge-segment'],
  [36006, 'huge-init'], [36007, 'all-404'], [36008, 'target-huge'], [36009, 'target-huge'], [36010, 'endless-segment'],
]);
/** The TS room (the others are fMP4). */
const TS_ROOM = 36010;
const TARGETS: Record<number, number> = { 36008: 5_000_000, 36009: 3_000_000 };
const SECONDS = 40;
/** The attack sizes are small (64 MiB init and segment, not 512 MiB / 2 GB): the caps (8 MiB init, 32 MiB segment) sit well below. */
const HUGE = 64 * 1024 * 1024;
/** Peak RSS growth of the whole test process (9 rooms on one worker thread) over its start: measured ~100 MiB. */
const RSS_GROWTH_BOUND_MIB = 256;

const mp4Of = (dir: string, roomId: number): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.(mp4|ts)$/.test(f) && f.includes(`${roomId}-`)).map((f) => join(dir, f));

describe('a hostile HLS CDN', () => {
  let h: Harness;
  let cdn: HostileHls;
  let logs: ReturnType<typeof collectLogs>;
  let peakGrowth = 0;
  let wall = 0;
  const playInfo: Record<number, number> = {};

  beforeAll(async () => {
    logs = collectLogs();
    cdn = await startHostileHls(ATTACKS, { hugeBytes: HUGE, target: (id) => TARGETS[id] ?? 5_000_000 });
    const rooms = [HEALTHY, ...ATTACKS.keys()].map((roomId) => ({
      roomId, live: true, formats: [roomId === TS_ROOM ? 'ts' as const : 'fmp4' as const], streamHost: roomId === HEALTHY ? undefined : cdn.url,
    }));
    const base = process.memoryUsage().rss;
    h = await startHarness({ rooms, roomsPerWorker: 16, global: { TimingWatchdogTimeout: 3000 } });
    cdn.upstream = h.sim.url;
    const opened = await h.waitEvent('FileOpening', (e) => roomOf(e) === HEALTHY, 30_000);
    const started = Date.parse(opened.EventTimestamp);
    const until = Date.now() + SECONDS * 1000;
    while (Date.now() < until) {
      peakGrowth = Math.max(peakGrowth, (process.memoryUsage().rss - base) / 1024 / 1024);
      await sleep(250);
    }
    for (const id of [HEALTHY, ...ATTACKS.keys()]) playInfo[id] = h.sim.room(id).counters.apiHits.getRoomPlayInfo;
    // The healthy room's media is measured against the time it was live while recording, not against the time its
    // recorder takes to see the stream end (a playlist poll or two, longer on a loaded machine).
    wall = (Date.now() - started) / 1000;
    for (const id of [HEALTHY, ...ATTACKS.keys()]) h.sim.setLive(id, false);
    await h.waitEvent('SessionEnded', (e) => roomOf(e) === HEALTHY, 30_000);
    await h.close();
    logs.stop();
  }, (SECONDS + 120) * 1000);
  afterAll(async () => {
    await cdn?.close();
  });

  it(`keeps the process's RSS growth under ${RSS_GROWTH_BOUND_MIB} MiB`, () => {
    console.log(`hostile HLS: peak RSS growth ${peakGrowth.toFixed(0)} MiB; hits ${JSON.stringify([...cdn.hits])}; play-info ${JSON.stringify(playInfo)}`);
    expect(peakGrowth).toBeLessThan(RSS_GROWTH_BOUND_MIB);
  });

  it('the healthy room on the same thread keeps pace, in clean files', async () => {
    let recorded = 0;
    for (const f of mp4Of(h.workDir, HEALTHY)) {
      const d = await decode(f);
      expect(d.errors, f).toBe('');
      recorded += d.videoFrames / 25;
    }
    console.log(`healthy room: ${recorded.toFixed(1)} s of media in ${wall.toFixed(1)} s`);
    expect(recorded / wall).toBeGreaterThan(0.85);
  });

  it('every file of every hostile room is closed and decodes cleanly; no junk segment reached a file', async () => {
    for (const id of ATTACKS.keys()) {
      for (const f of mp4Of(h.workDir, id)) {
        expect(statSync(f).size, f).toBeLessThan(16 * 1024 * 1024);
        expect((await decode(f)).errors, `${ATTACKS.get(id)}: ${f}`).toBe('');
      }
    }
  });

  it('rooms whose segments never complete reconnect, resolving the stream again through the API', () => {
    for (const [id, attack] of ATTACKS) {
      if (attack === 'target-huge' || attack === 'deep-moof') continue;
      expect(playInfo[id], attack).toBeGreaterThanOrEqual(3);
    }
    const ends = (id: number): string[] => logs.match('stream connection ended', id).map((l) => String(l.code));
    const warned = (id: number, code: string): boolean => logs.lines.some((l) => l.RoomId === id && l.code === code);
    console.log(`connection ends: ${JSON.stringify([...ATTACKS.keys()].map((id) => [id, ends(id)]))}`);
    expect(warned(36002, 'HLS_BAD_FRAGMENT')).toBe(true);
    expect(warned(36003, 'HLS_BAD_FRAGMENT')).toBe(true);
    expect(ends(36004)).toContain('HLS_NO_PROGRESS');
    expect(ends(TS_ROOM)).toContain('HLS_NO_PROGRESS');
    // The cap ends the connection; on a loaded machine the segment's own time limit may cut the transfer first. Either
    // way the connection ends and nothing of the junk is committed (every file's size is checked below).
    expect(ends(36005).some((c) => c === 'HLS_SEGMENT_TOO_LARGE' || c === 'HLS_SEGMENTS_FAILING')).toBe(true);
    expect(ends(36006)).toContain('HLS_INIT_TOO_LARGE');
    // Every segment 404: the run of failures (or, with a short watchdog, no progress) ends the connection; each new one re-resolves.
    expect(ends(36007).length).toBeGreaterThanOrEqual(2);
    for (const code of ends(36007).slice(0, -1)) expect(['HLS_SEGMENTS_FAILING', 'HLS_NO_PROGRESS']).toContain(code);
  });

  it('huge target durations are clamped to 30 s: a handful of playlist requests and one warning, not thousands', () => {
    for (const id of [36008, 36009]) {
      expect(cdn.hits.get(id)!.playlists).toBeLessThan(20);
      expect(cdn.hits.get(id)!.playlists).toBeGreaterThanOrEqual(2); // polled again within 30 s, not in 17 days
      expect(logs.match('outside 0.5–30 s', id).length).toBeLessThanOrEqual(3);
    }
  });
});
