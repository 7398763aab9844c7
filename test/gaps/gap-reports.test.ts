// What cannot be filled is reported, never spliced: segments gone from the CDN, and HLS of other content.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { collectLogs } from '../hls/helpers.js';
import { breaks, expectClipFrames, seiTimestamps } from './helpers.js';

const logs = collectLogs();
const story = (roomId: number): string => logs.lines.filter((l) => l.RoomId === roomId).map((l) => `${l['@t']} ${l['@mt']} ${JSON.stringify({ how: l.how, gapMs: l.gapMs, code: l.code })}`).join('\n');

async function outage(roomId: number, fault: Record<string, unknown>, hls: Record<string, unknown> | null, global = {}): Promise<{ h: Harness; closed: FileClosedData[] }> {
  const h = await startHarness({
    rooms: [{ roomId, live: true, formats: ['flv', 'fmp4'], liveStream: { hlsRetentionSec: 60 } }],
    roomConfig: { [roomId]: { RecordingProtocol: 'flv' } },
    global,
  });
  await h.waitEvent('FileOpening', (e) => roomOf(e) === roomId, 40_000);
  await sleep(4000);
  if (hls) h.sim.addFault(roomId, hls);
  h.sim.addFault(roomId, fault);
  await sleep(1000 * (fault.seconds as number) + 9000);
  h.sim.setLive(roomId, false);
  await h.waitEvent('SessionEnded', (e) => roomOf(e) === roomId, 60_000);
  return { h, closed: h.events.filter((e) => e.EventType === 'FileClosed').map((e) => e.EventData as FileClosedData) };
}

describe('segments gone from the CDN before the drop was noticed', () => {
  const ROOM = 23811;
  let h: Harness;
  let closed: FileClosedData[];
  beforeAll(async () => {
    // The connection goes silent; the watchdog notices after 10 s, when the segments of the first seconds have
    // left the list (6 s) and the CDN (1 s later): those are lost, the rest is filled.
    ({ h, closed } = await outage(ROOM, { kind: 'flv-outage', seconds: 12, mode: 'stall' }, { kind: 'hls-retention', seconds: 1 }, { TimingWatchdogTimeout: 10_000 }));
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  it('reports exactly one gap, the lost interval within one GOP, in FileClosed and the sidecar', async () => {
    expect(closed, story(ROOM)).toHaveLength(1);
    const path = `${h.workDir}/${closed[0]!.RelativePath}`;
    const sei = seiTimestamps(path);
    const lost = breaks(sei);
    expect(lost).toHaveLength(1);
    const lostMs = lost[0]![1] - lost[0]![0] - 40;
    expect(lostMs).toBeGreaterThan(1000);
    const gaps = closed[0]!.Gaps ?? [];
    expect(gaps, story(ROOM)).toHaveLength(1);
    expect(gaps[0]!.Reason).toBe('reconnect');
    expect(Math.abs(gaps[0]!.DurationMs - lostMs)).toBeLessThanOrEqual(960);
    // Where it sits: the file's timeline at the break (its first frame is at 0).
    expect(Math.abs(gaps[0]!.StartMs - (lost[0]![0] + 40 - sei[0]!))).toBeLessThanOrEqual(960);
    const sidecar = JSON.parse(readFileSync(`${path}.gaps.json`, 'utf8')) as { Gaps: unknown[] };
    expect(sidecar.Gaps).toEqual(gaps);
    // Frames on both sides of the gap are the stream's, in order, decoded cleanly.
    expect(await expectClipFrames(path, sei, (got, want) => expect(got).toEqual(want))).toBe('');
  });
});

describe('HLS of another clip', () => {
  const ROOM = 23812;
  let h: Harness;
  let closed: FileClosedData[];
  beforeAll(async () => {
    ({ h, closed } = await outage(ROOM, { kind: 'flv-outage', seconds: 6 }, { kind: 'hls-foreign' }));
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  it('gets a reported gap, not a spliced file', async () => {
    expect(closed, story(ROOM)).toHaveLength(1);
    const path = `${h.workDir}/${closed[0]!.RelativePath}`;
    const sei = seiTimestamps(path);
    // Only the FLV's own frames, each once and in order, with one hole where the outage was.
    expect(sei.every((t, i) => i === 0 || t > sei[i - 1]!)).toBe(true);
    const lost = breaks(sei);
    expect(lost).toHaveLength(1);
    const gaps = closed[0]!.Gaps ?? [];
    expect(gaps.map((g) => g.Reason), story(ROOM)).toEqual(['reconnect']);
    expect(Math.abs(gaps[0]!.DurationMs - (lost[0]![1] - lost[0]![0] - 40))).toBeLessThanOrEqual(960);
    expect(await expectClipFrames(path, sei, (got, want) => expect(got).toEqual(want))).toBe('');
    expect(existsSync(`${path}.gaps.json`)).toBe(true);
  });
});
