// An 8-s FLV outage on a live room: one file, every frame of the stream once and in order (filled from HLS), no gap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData, RecorderEvent } from '../../src/events/types.js';
import type { SentSpan } from '../../src/simulator/live-stream/live-stream.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { collectLogs } from '../hls/helpers.js';
import { expectClipFrames, framesBetween, seiTimestamps } from './helpers.js';

const ROOM = 23801;
const pathOf = (e: RecorderEvent): string => (e.EventData as { RelativePath: string }).RelativePath;

describe('flv-outage filled from HLS', () => {
  let h: Harness;
  let closed: FileClosedData[];
  let afterAllLogs: ReturnType<typeof collectLogs>;
  beforeAll(async () => {
    const logs = collectLogs();
    afterAllLogs = logs;
    h = await startHarness({
      rooms: [{ roomId: ROOM, name: 'outage', live: true, formats: ['flv', 'fmp4'], liveStream: { hlsRetentionSec: 60 } }],
      // The default configuration: RecordingProtocol flv,hls-fmp4,hls-ts and brec's 6-s TimingStreamRetry (the harness
      // shortens it): the refused reconnects must not switch the room to HLS, which would start another file.
      global: { TimingStreamRetry: 6000 },
    });
    await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM, 40_000);
    await sleep(5000);
    h.sim.addFault(ROOM, { kind: 'flv-outage', seconds: 8 });
    await sleep(8000);
    // Well after the outage: the new connection is aligned and recording goes on.
    await sleep(8000);
    h.sim.setLive(ROOM, false);
    await h.waitEvent('SessionEnded', (e) => roomOf(e) === ROOM, 60_000);
    closed = h.events.filter((e) => e.EventType === 'FileClosed').map((e) => e.EventData as FileClosedData);
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  const story = (): string => afterAllLogs.lines.filter((l) => l.RoomId === ROOM).map((l) => `${l['@t']} ${l['@mt']} ${JSON.stringify({ how: l.how, gapMs: l.gapMs, code: l.code })}`).join('\n');

  it('writes one file without gaps', () => {
    expect(h.events.filter((e) => e.EventType === 'FileOpening').map(pathOf), story()).toHaveLength(1);
    expect(closed).toHaveLength(1);
    expect(closed[0]!.Gaps ?? [], story()).toEqual([]);
  });

  it('has every frame of the stream between its first and last frame once, in order', async () => {
    const path = `${h.workDir}/${closed[0]!.RelativePath}`;
    const record = h.sim.room(ROOM).liveStream!.toJSON() as { flvSent: SentSpan[] };
    const spans = record.flvSent;
    expect(spans.length).toBeGreaterThanOrEqual(2); // the outage cut the FLV: a second response followed it
    const sei = seiTimestamps(path);
    expect(sei.length).toBeGreaterThan(300);
    // Exactly the stream's frames from the first to the last, no repeat, none missing.
    expect(sei).toEqual(framesBetween(sei[0]!, sei.at(-1)!));
    // The file holds frames no FLV response sent: the outage was filled from HLS.
    const sentByFlv = (t: number): boolean => spans.some((s) => t >= s.firstVideoTs && t <= s.lastVideoTs);
    expect(sei.filter((t) => !sentByFlv(t)).length).toBeGreaterThan(100);
    expect(sei.at(-1)!).toBeLessThanOrEqual(Math.max(...spans.map((s) => s.lastVideoTs)));
    // Decoded frames: the clip's frame at each stream time, in order.
    expect(await expectClipFrames(path, sei, (got, want) => expect(got).toEqual(want))).toBe('');
  });

  it('logs the fill', () => {
    if (process.env.GAP_DEBUG) for (const l of afterAllLogs.lines.filter((x) => x.RoomId === ROOM)) console.log(l['@t'], l['@mt'], JSON.stringify(l));
    const fills = afterAllLogs.match('reconnect: ', ROOM).filter((l) => l.how === 'hls');
    expect(fills).toHaveLength(1);
    expect(fills[0]!.filled).toBeGreaterThan(100);
  });
});
