// Batch live detection against the simulator: one call per batch, status to the right rooms, fallback, danmaku sockets, no start burst.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimRoomInit } from '../../src/simulator/index.js';
import { roomOf, sleep, startHarness, type Harness } from '../rooms/harness.js';
import { DETECT_SPACING_MS } from '../../src/detect/batch-detector.js';

/** The simulator's risk control at 60 calls a minute per IP: the tests prove it is never reached. */
const RISK = 60;

/** A work directory whose uid cache knows the rooms (as after a first run): no per-room call is needed at start. */
function seededWorkDir(rooms: SimRoomInit[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'liverec-detect-'));
  mkdirSync(join(dir, '.liverec'));
  writeFileSync(join(dir, '.liverec', 'room-uids.json'), JSON.stringify(Object.fromEntries(rooms.map((r) => [r.roomId, r.roomId * 10 + 7]))));
  return dir;
}

const roomsFrom = (first: number, n: number): SimRoomInit[] => Array.from({ length: n }, (_, i) => ({ roomId: first + i }));

function perRoomCalls(h: Harness): number {
  let n = 0;
  for (const r of h.sim.rooms.values()) n += r.counters.apiHits.total;
  return n;
}

async function until(what: string, cond: () => boolean, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('batch live detection', () => {
  it('checks 200 rooms with one batch call per round, maps each status to its room and records the one that goes live', async () => {
    const rooms = roomsFrom(600_001, 200);
    h = await startHarness({ rooms, workDir: seededWorkDir(rooms), sim: { riskPerMinute: RISK } });
    const sim = h.sim;
    await until('the first batch call', () => sim.batchCalls >= 1);
    await sleep(300);
    // One call carried all 200 uids; no room was asked about on its own.
    expect(sim.batchUids).toBe(200 * sim.batchCalls);
    expect(perRoomCalls(h)).toBe(0);
    // Facts from the batch answer reached the right rooms' mirrors.
    const recorder = h.service.recorder;
    await until('names mapped', () => recorder.rooms.every((r) => r.state.name === `sim-${r.roomId}`));
    expect(recorder.rooms.find((r) => r.roomId === 600_123)!.state.uid).toBe(600_123 * 10 + 7);

    sim.setLive(600_150, true);
    const opened = await h.waitEvent('FileOpening', (e) => roomOf(e) === 600_150, 40_000);
    expect(roomOf(opened)).toBe(600_150);
    // Only the live room got per-room calls: play info, once (the batch answer stood in for room info), and danmaku info.
    for (const r of sim.rooms.values()) if (r.roomId !== 600_150) expect(r.counters.apiHits.total).toBe(0);
    expect(sim.rooms.get(600_150)!.counters.apiHits.getInfoByRoom).toBe(0);
    expect(sim.rooms.get(600_150)!.counters.apiHits.getRoomPlayInfo).toBe(1);
    expect(h.events.filter((e) => e.EventType === 'StreamStarted').map(roomOf)).toEqual([600_150]);
    const stats = sim.stats() as { riskHits: number; peakApiCallsPerMinute: number };
    expect(stats.riskHits).toBe(0);
    expect(stats.peakApiCallsPerMinute).toBeLessThan(RISK);
  }, 90_000);

  it('falls back to per-room checks while the batch endpoint fails', async () => {
    const rooms = roomsFrom(610_001, 5);
    const workDir = seededWorkDir(rooms);
    h = await startHarness({ rooms, workDir, sim: { riskPerMinute: RISK } });
    await until('the first batch call', () => h!.sim.batchCalls >= 1);
    // From now on every batch call fails; the room goes live while idle (no danmaku socket to tell it).
    h.sim.batchFaults.remaining = -1;
    h.sim.setLive(610_003, true);
    const opened = await h.waitEvent('FileOpening', (e) => roomOf(e) === 610_003, 40_000);
    expect(roomOf(opened)).toBe(610_003);
    expect(h.service.recorder.detection.detector.failures).toBeGreaterThanOrEqual(1);
    expect(h.service.recorder.detection.fallbackChecks).toBeGreaterThanOrEqual(1);
    expect((h.sim.stats() as { riskHits: number }).riskHits).toBe(0);
  }, 90_000);

  it('opens no danmaku socket for idle rooms, one for a live room, and keeps one open for DanmakuInstantDetect', async () => {
    const rooms = roomsFrom(620_001, 4);
    h = await startHarness({
      rooms: rooms.map((r) => ({ ...r, live: r.roomId === 620_001 })), workDir: seededWorkDir(rooms),
      roomConfig: { 620_004: { DanmakuInstantDetect: true } }, sim: { riskPerMinute: RISK },
    });
    await h.waitEvent('FileOpening', (e) => roomOf(e) === 620_001, 40_000);
    const sim = h.sim;
    await until('danmaku of the live room and the instant-detect room', () => sim.rooms.get(620_001)!.danmaku.size === 1 && sim.rooms.get(620_004)!.danmaku.size === 1);
    await sleep(1500);
    expect(sim.rooms.get(620_002)!.danmaku.size).toBe(0);
    expect(sim.rooms.get(620_003)!.danmaku.size).toBe(0);
    expect(sim.rooms.get(620_002)!.counters.danmakuAuths + sim.rooms.get(620_003)!.counters.danmakuAuths).toBe(0);
    // The instant-detect room sees a start through its socket (LIVE), without waiting for a batch round.
    sim.setLive(620_004, true);
    await h.waitEvent('StreamStarted', (e) => roomOf(e) === 620_004, 20_000);
    expect((sim.stats() as { riskHits: number }).riskHits).toBe(0);
  }, 90_000);

  it('starts 500 new rooms with a few batch calls (uids learned 500 a call), not a burst of per-room calls', async () => {
    const rooms = roomsFrom(630_001, 500);
    h = await startHarness({ rooms, sim: { riskPerMinute: RISK } });
    await until('the first status batch call', () => h!.sim.batchCalls >= 1);
    const firstBatchAt = Date.now();
    await sleep(4000);
    const stats = h.sim.stats() as { apiCalls: number; batchCalls: number; baseInfoCalls: number; riskHits: number; peakApiCallsPerMinute: number };
    // Counted against the detector's own pacing, not a wall-clock margin: one round per DETECT_SPACING_MS however
    // slow the machine is, and every other call is the one base-info call or the guest identity / WBI keys.
    const rounds = 1 + Math.ceil((Date.now() - firstBatchAt) / DETECT_SPACING_MS);
    expect(perRoomCalls(h)).toBe(0);
    expect(stats.baseInfoCalls).toBe(1);
    expect(stats.batchCalls).toBeLessThanOrEqual(rounds);
    expect(stats.apiCalls - stats.batchCalls - stats.baseInfoCalls).toBeLessThanOrEqual(2); // finger/spi and nav, once each
    await until('every uid learned', () => h!.service.recorder.rooms.every((r) => r.state.uid === r.roomId * 10 + 7));
    // Idle rooms hold no actor: no room thread runs yet.
    expect(h.service.recorder.workerCount).toBe(0);
    h.sim.setLive(630_250, true);
    await h.waitEvent('FileOpening', (e) => roomOf(e) === 630_250, 40_000);
    expect(h.service.recorder.workerCount).toBe(1);
    expect(stats.riskHits).toBe(0);
    expect(stats.peakApiCallsPerMinute).toBeLessThan(RISK);
  }, 90_000);
});
