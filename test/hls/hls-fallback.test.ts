// FLV failing on a live room that also offers fMP4 → the session goes on over HLS; webhook FileClosed of the .mp4 is exact.
import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData, RecorderEvent } from '../../src/events/types.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { startReceiver, until, type Receiver } from '../webhook/helpers.js';
import { decode } from './helpers.js';

const ROOM = 23201;
const sessionOf = (e: RecorderEvent): string => (e.EventData as { SessionId: string }).SessionId;
const pathOf = (e: RecorderEvent): string => (e.EventData as { RelativePath: string }).RelativePath;

describe('protocol fallback: FLV → HLS fMP4 in the same session', () => {
  let h: Harness;
  let hook: Receiver;
  beforeAll(async () => {
    hook = await startReceiver(() => 200);
    // FLV + TS + fMP4 offered; the room asks for FLV first, then fMP4 (TS is not wanted).
    h = await startHarness({
      rooms: [{ roomId: ROOM, name: 'fallback', live: true }],
      global: { WebHookUrlsV2: hook.url },
      roomConfig: { [ROOM]: { RecordingProtocol: 'flv,hls-fmp4' } },
    });
    await h.waitEvent('FileOpening', (e) => pathOf(e).endsWith('.flv'), 30_000);
    await sleep(2000);
    // From now on every FLV request fails, and the open FLV response is cut.
    h.sim.addFault(ROOM, { kind: 'stream-404', count: 1000 });
    h.sim.addFault(ROOM, { kind: 'stream-cut', afterMs: 0 });
    await h.waitEvent('FileOpening', (e) => pathOf(e).endsWith('.mp4'), 40_000);
    await sleep(5000);
    h.sim.setLive(ROOM, false);
    await h.waitEvent('SessionEnded', (e) => roomOf(e) === ROOM, 30_000);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await hook?.close();
  });

  it('records the FLV file, then the .mp4, in one session', async () => {
    const opened = h.events.filter((e) => e.EventType === 'FileOpening');
    expect(opened.map((e) => pathOf(e).slice(-4))).toEqual(['.flv', '.mp4']);
    const sessions = new Set(h.events.filter((e) => e.EventType !== 'StreamStarted' && e.EventType !== 'StreamEnded').map(sessionOf));
    expect(sessions.size).toBe(1);
    expect(h.sim.room(ROOM).counters.hlsSegmentsServed).toBeGreaterThan(3);
  });

  it('webhook v2 FileClosed of the .mp4 carries its size on disk and its duration', async () => {
    await until(() => hook.requests.some((r) => r.body.includes('"FileClosed"') && r.body.includes('.mp4')), 15_000);
    const body = JSON.parse(hook.requests.find((r) => r.body.includes('"FileClosed"') && r.body.includes('.mp4'))!.body) as { EventData: FileClosedData };
    const path = `${h.workDir}/${body.EventData.RelativePath}`;
    expect(body.EventData.FileSize).toBe(statSync(path).size);
    const d = await decode(path);
    expect(d.errors).toBe('');
    expect(d.codecs).toEqual(['aac', 'h264']);
    expect(Math.abs(body.EventData.Duration - d.duration) / d.duration).toBeLessThan(0.02);
    // The same fields as the FLV file's FileClosed, apart from the liverec extensions sent only when not empty
    // (Gaps, Markers: the cut FLV file may lack frames, the .mp4 need not).
    const keys = (data: object): string[] => Object.keys(data).filter((k) => k !== 'Gaps' && k !== 'Markers').sort();
    expect(keys(body.EventData)).toEqual(keys((JSON.parse(hook.requests.find((r) => r.body.includes('"FileClosed"') && r.body.includes('.flv'))!.body) as { EventData: object }).EventData));
  });
});
