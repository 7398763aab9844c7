// Gap accounting and alignment pieces: the splice plan, fMP4 samples, frames as FLV tags, the sidecar, metrics, webhook v2.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { GapSeconds } from '../../src/api/metrics/gap-metrics.js';
import type { FileClosedData, RecorderEvent } from '../../src/events/types.js';
import { readSamples } from '../../src/hls/backfill/fmp4-samples.js';
import { FileGaps, writeGapSidecar } from '../../src/rooms/gaps/file-gaps.js';
import { frameKey, framesToTags, type MediaFrame, tagKey } from '../../src/rooms/gaps/frames.js';
import { planSplice, type PlanInput, type Splice } from '../../src/rooms/gaps/splice-plan.js';
import { muxFragment } from '../../src/simulator/live-stream/fmp4-mux.js';
import { buildV2Payload } from '../../src/webhook/payload-v2.js';

const toV2 = (e: RecorderEvent) => buildV2Payload(e, 'id');

/** A video frame whose NAL unit (type 1, or 5 for a keyframe) carries its own number. */
function vframe(n: number, ms = n * 40, key = n % 24 === 0): MediaFrame {
  const nal = Buffer.alloc(9);
  nal.writeUInt32BE(5, 0);
  nal[4] = key ? 0x65 : 0x41;
  nal.writeUInt32BE(n, 5);
  return { video: true, ms, ctsMs: 0, key, payload: nal };
}
const aframe = (n: number, ms: number): MediaFrame => ({ video: false, ms, ctsMs: 0, key: true, payload: Buffer.from([0x21, n & 0xff, n >> 8]) });
const key = (f: MediaFrame): string => frameKey(f.video, f.payload);

/** Stream frames n..m on the HLS timeline at 1000 + 40·n ms, with audio every 40 ms too. */
function hls(from: number, to: number): MediaFrame[] {
  const out: MediaFrame[] = [];
  for (let n = from; n <= to; n++) out.push(vframe(n, 1000 + n * 40), aframe(n, 1000 + n * 40 + 10));
  return out;
}

function input(over: Partial<PlanInput> & { lastVideo: number | null; newKey: number }): PlanInput {
  const L = over.lastVideo;
  return {
    end: { video: L === null ? null : { ts: L * 40, key: key(vframe(L)) }, audioTs: L === null ? null : L * 40 + 10, recent: new Map(), frameMs: 40 },
    start: { ts: over.newKey * 40, key: key(vframe(over.newKey)), firstAudioTs: over.newKey * 40 + 10 },
    hls: over.hls ?? hls(0, 200), hevc: false, final: over.final ?? false, canReachBack: over.canReachBack ?? true, wallGapMs: over.wallGapMs ?? 8000, maxBackMs: 120_000,
  };
}

describe('planSplice', () => {
  it('fills every frame between the written end and the new keyframe, on the file timeline', () => {
    const p = planSplice(input({ lastVideo: 30, newKey: 96 })) as Splice;
    expect(p.how).toBe('hls');
    expect(p.gap).toBeNull();
    const video = p.fill.filter((f) => f.video).map((f) => f.ms - p.fillOffset);
    expect(video).toEqual(Array.from({ length: 65 }, (_, i) => (31 + i) * 40));
    const audio = p.fill.filter((f) => !f.video).map((f) => f.ms - p.fillOffset);
    expect(audio).toEqual(Array.from({ length: 65 }, (_, i) => (31 + i) * 40 + 10));
    expect(p.shift).toBe(0); // the FLV timestamps ran on
  });

  it('drops what a GOP cache sends again', () => {
    const i = input({ lastVideo: 30, newKey: 24 });
    i.end.recent.set(key(vframe(24)), 24 * 40);
    const p = planSplice(i) as Splice;
    expect(p).toMatchObject({ how: 'gop-cache', fill: [], shift: 0, dropVideoUpTo: 1200 });
  });

  it('reaches back, then reports what the CDN no longer has', () => {
    const window = hls(60, 200);
    expect(planSplice(input({ lastVideo: 30, newKey: 120, hls: window })).kind).toBe('older');
    const p = planSplice(input({ lastVideo: 30, newKey: 120, hls: window, canReachBack: false })) as Splice;
    expect(p.how).toBe('hls-partial');
    expect(p.fill.filter((f) => f.video)[0]!.ms).toBe(1000 + 72 * 40); // the first keyframe in the window
    expect(p.gap).toEqual({ atTs: 31 * 40, durationMs: (72 - 31) * 40 });
    expect(p.fill.filter((f) => f.video)[0]!.ms - p.fillOffset).toBe(31 * 40); // no hole in the timestamps
  });

  it('other content: waits, then a gap by the timestamps, never a fill', () => {
    const other = hls(0, 200).map((f) => {
      const payload = Buffer.from(f.payload);
      payload[payload.length - 1] ^= 0xff;
      return { ...f, payload };
    });
    expect(planSplice(input({ lastVideo: 30, newKey: 96, hls: other })).kind).toBe('wait');
    const p = planSplice(input({ lastVideo: 30, newKey: 96, hls: other, final: true })) as Splice;
    expect(p).toMatchObject({ how: 'unaligned', fill: [], gap: { atTs: 31 * 40, durationMs: 65 * 40 } });
    expect(96 * 40 + p.shift).toBe(31 * 40);
  });

  it('a late start begins at the oldest keyframe within reach', () => {
    expect(planSplice(input({ lastVideo: null, newKey: 120, hls: hls(48, 200) })).kind).toBe('older');
    const p = planSplice(input({ lastVideo: null, newKey: 120, hls: hls(20, 200), canReachBack: false })) as Splice;
    expect(p.how).toBe('hls-late-start');
    expect(p.fill[0]!.ms).toBe(1000 + 24 * 40);
    expect(p.fill.filter((f) => f.video)).toHaveLength(96);
  });

  it('never fills across a new init section: a late start begins at the first keyframe of the new parameters', () => {
    // Frames 0..95 under init A, 96..200 under init B (a header change at the keyframe 96).
    const window = hls(0, 200).map((f) => ({ ...f, init: f.ms < 1000 + 96 * 40 ? 'A' : 'B' }));
    const p = planSplice(input({ lastVideo: null, newKey: 120, hls: window })) as Splice;
    expect(p.kind).toBe('splice'); // nothing older is of use: no reach back
    expect(p.how).toBe('hls-late-start');
    expect(p.fill.every((f) => f.init === 'B')).toBe(true);
    expect(p.fill.filter((f) => f.video).map((f) => f.ms)).toEqual(Array.from({ length: 24 }, (_, i) => 1000 + (96 + i) * 40));
  });

  it('a header change and its reverse (A, B, A again): only the run of init A that holds the new keyframe fills', () => {
    // Soak seed 7474 run 30: the simulator flips 360p and 480p, so the older run of A has the same init key as the
    // newest one; filtering by key alone joined the two runs and left B's 2880 ms as a hole inside the file.
    const window = hls(0, 200).map((f) => ({ ...f, init: f.ms < 1000 + 48 * 40 ? 'A' : f.ms < 1000 + 120 * 40 ? 'B' : 'A' }));
    const p = planSplice(input({ lastVideo: null, newKey: 168, hls: window })) as Splice;
    expect(p.how).toBe('hls-late-start');
    expect(p.fill.filter((f) => f.video).map((f) => f.ms)).toEqual(Array.from({ length: 48 }, (_, i) => 1000 + (120 + i) * 40));
    expect(p.fill.every((f) => f.ms >= 1000 + 120 * 40)).toBe(true);
    // A reconnect whose written end lies in the older run of A: nothing of B is in the window's A runs, so no fill
    // may pretend the two runs are one.
    const r = planSplice(input({ lastVideo: 30, newKey: 168, hls: window, canReachBack: false })) as Splice;
    expect(r.fill.every((f) => f.ms >= 1000 + 120 * 40)).toBe(true);
  });
});

describe('frames', () => {
  it('fMP4 fragments read back sample for sample, and FLV tags made from them keep their keys', () => {
    const frames = [vframe(0), vframe(1), vframe(2)];
    const frag = muxFragment(7, [
      { trackId: 1, samples: frames.map((f, i) => ({ dts: i * 512, duration: 512, cts: 0, key: f.key, bytes: f.payload })) },
      { trackId: 2, samples: [{ dts: 0, duration: 1024, cts: 0, key: true, bytes: Buffer.from([1, 2, 3]) }] },
    ]);
    const { samples, torn } = readSamples(frag, null);
    expect(torn).toBe(0);
    expect(samples.map((s) => [s.trackId, s.dts, s.key, Buffer.from(s.bytes).toString('hex')])).toEqual([
      ...frames.map((f, i) => [1, i * 512, f.key, Buffer.from(f.payload).toString('hex')]), [2, 0, true, '010203'],
    ]);
    const tags = framesToTags(frames, -5, 7, 0xaf);
    expect(tags.map((t) => t.timestamp)).toEqual([5, 45, 85]);
    expect(tags.map(tagKey)).toEqual(frames.map(key));
    // Access unit delimiters and filler are packaging: the same frame with them has the same key.
    const aud = Buffer.from([0, 0, 0, 2, 0x09, 0xf0]);
    expect(frameKey(true, Buffer.concat([aud, frames[1]!.payload]))).toBe(key(frames[1]!));
  });
});

describe('gap reports', () => {
  it('a sidecar only for a file with gaps; the session list names each file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'liverec-gaps-'));
    const g = new FileGaps();
    g.opened('a.flv');
    expect(g.add(1000, 0.2, 'reconnect')).toBe(false);
    expect(writeGapSidecar(join(dir, 'a.flv'), 'a.flv', g.take())).toBeNull();
    expect(existsSync(join(dir, 'a.flv.gaps.json'))).toBe(false);
    g.opened('b.flv');
    g.add(1500.4, 2999.6, 'timestamp-jump');
    const gaps = g.take();
    writeGapSidecar(join(dir, 'b.flv'), 'b.flv', gaps);
    expect(JSON.parse(readFileSync(join(dir, 'b.flv.gaps.json'), 'utf8'))).toEqual({ File: 'b.flv', Gaps: [{ StartMs: 1500, DurationMs: 3000, Reason: 'timestamp-jump' }], TotalMs: 3000 });
    expect(g.session).toEqual([{ StartMs: 1500, DurationMs: 3000, Reason: 'timestamp-jump', RelativePath: 'b.flv' }]);
  });

  const closed = (gaps?: FileClosedData['Gaps']): RecorderEvent => ({
    EventType: 'FileClosed', EventTimestamp: '2026-01-01T00:00:00.0000000+08:00',
    EventData: {
      RoomId: 1, ShortId: 0, Name: 'n', Title: 't', AreaNameParent: 'p', AreaNameChild: 'c', Recording: true, Streaming: true, DanmakuConnected: false,
      SessionId: 's', RelativePath: 'a.flv', FileOpenTime: 'x', FileCloseTime: 'y', FileSize: 1, Duration: 1, ...(gaps ? { Gaps: gaps } : {}),
    },
  });

  it('liverec_gap_seconds_total sums FileClosed gaps by reason', async () => {
    const m = new GapSeconds();
    const reg = new Registry();
    m.register(reg);
    m.onEvent(closed([{ StartMs: 0, DurationMs: 1500, Reason: 'reconnect' }, { StartMs: 9000, DurationMs: 500, Reason: 'reconnect' }]));
    m.onEvent(closed([{ StartMs: 0, DurationMs: 960, Reason: 'hls-segment' }]));
    const text = await reg.metrics();
    expect(text).toContain('liverec_gap_seconds_total{reason="reconnect"} 2');
    expect(text).toContain('liverec_gap_seconds_total{reason="hls-segment"} 0.96');
    expect(text).toContain('liverec_gap_seconds_total{reason="timestamp-jump"} 0');
  });

  it('webhook v2 FileClosed carries Gaps only when the file has some', () => {
    expect(toV2(closed()).EventData).not.toHaveProperty('Gaps');
    expect(toV2(closed([])).EventData).not.toHaveProperty('Gaps');
    expect(toV2(closed([{ StartMs: 5, DurationMs: 6, Reason: 'reconnect' }])).EventData.Gaps).toEqual([{ StartMs: 5, DurationMs: 6, Reason: 'reconnect' }]);
  });
});

describe('OpenAPI', () => {
  it('documents the gap extension: FileGap, the event-data extensions and the room resource\'s gaps', async () => {
    const { startFixture } = await import('../api/fixture.js');
    const fx = await startFixture();
    try {
      const doc = (await (await fetch(`${fx.url}/swagger/brec/swagger.json`)).json()) as { components: { schemas: Record<string, any> } };
      const s = doc.components.schemas;
      expect(Object.keys(s.FileGap.properties)).toEqual(['StartMs', 'DurationMs', 'Reason']);
      expect(s.FileClosedEventDataExtension.properties.Gaps.type).toBe('array');
      expect(s.FileOpeningEventDataExtension.properties).toHaveProperty('BackfillMs');
      expect(s.RoomDto.properties.gaps.type).toBe('array');
    } finally {
      await fx.close();
    }
  });
});
