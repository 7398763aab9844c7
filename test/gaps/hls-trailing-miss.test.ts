// Issue 45 (model seed 800799656): HLS segments that 404 as the stream ends are no gap; a miss followed by a written segment is one.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FIELDS, type FieldName, type RoomSettings } from '../../src/config/fields.js';
import type { FileClosedData, RecorderEvent } from '../../src/events/types.js';
import { ActorOutbox } from '../../src/rooms/actor-outbox.js';
import { HlsCapture } from '../../src/rooms/captures/hls-capture.js';
import type { RoomMessage } from '../../src/rooms/protocol.js';
import { RecordingFiles } from '../../src/rooms/recording-files.js';
import { StatsBatcher } from '../../src/rooms/stats-batcher.js';
import { StatsTracker } from '../../src/rooms/stats-tracker.js';
import { hlsClips } from '../../src/simulator/hls/hls-clips.js';

const ROOM = 45_401;
const SETTINGS = Object.fromEntries(Object.keys(FIELDS).map((k) => [k, FIELDS[k as FieldName].default])) as unknown as RoomSettings;
const cleanup: (() => void)[] = [];
afterEach(() => {
  while (cleanup.length > 0) cleanup.pop()!();
});

/**
 * Records one HLS connection over a loopback CDN serving the simulator's fMP4 clip: segments 0–3 are listed, those in
 * `gone` answer 404, those in `torn` break off half way, and the next playlist ends the stream. Returns the FileClosed events.
 */
async function record(gone: number[], torn: number[] = []): Promise<FileClosedData[]> {
  const clip = hlsClips('fmp4')[0]!;
  let polls = 0;
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    if (path.endsWith('.m3u8')) {
      const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-TARGETDURATION:1', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-MAP:URI="init.m4s"'];
      clip.segments.forEach((s, i) => lines.push(`#EXTINF:${s.duration.toFixed(3)},`, `${i}.m4s`));
      if (polls++ > 0) lines.push('#EXT-X-ENDLIST'); // the stream ended after the first listing
      res.end(`${lines.join('\n')}\n`);
      return;
    }
    const n = /\/(\d+)\.m4s$/.exec(path)?.[1];
    const body = path.endsWith('/init.m4s') ? clip.init : n !== undefined && !gone.includes(Number(n)) ? clip.segments[Number(n)]?.bytes : undefined;
    if (!body) res.writeHead(404).end();
    else if (torn.includes(Number(n))) {
      res.writeHead(200, { 'content-length': body.length });
      res.write(body.subarray(0, body.length >> 1), () => res.destroy());
    } else res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanup.push(() => server.close());
  const workDir = mkdtempSync(join(tmpdir(), 'liverec-hls-miss-'));
  cleanup.push(() => rmSync(workDir, { recursive: true, force: true }));
  const events: RecorderEvent[] = [];
  const post = (m: RoomMessage): void => {
    if (m.type === 'event') events.push(m.event);
  };
  const outbox = new ActorOutbox(post, new StatsBatcher(post), ROOM);
  const snapshot = { RoomId: ROOM, ShortId: 0, Name: 'n', Title: 't', AreaNameParent: 'a', AreaNameChild: 'b', Recording: true, Streaming: true, DanmakuConnected: false };
  const files = new RecordingFiles({
    sessionId: 's', workDir, template: null, writeMetadata: false, snapshot: () => snapshot, uid: () => 1,
    roomInfoJson: () => ({}), qn: () => 10_000, streamHost: () => '127.0.0.1',
  }, outbox);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/live/index.m3u8`;
  const capture = new HlsCapture({
    settings: () => SETTINGS, files, stats: new StatsTracker(), outbox, http: { streamConnectTimeoutMs: 30_000, watchdogTimeoutMs: 30_000 }, resume: { lastSeq: null },
    stream: { url, qn: 10_000, currentQn: 10_000, codec: 'avc', host: url, format: 'fmp4', urls: [url] },
  });
  // Four segments from sequence 0; the client starts three from the end (RFC 8216), at segment 1.
  const end = await capture.run();
  expect(end.reason, String(end.error)).toBe('eof');
  return events.filter((e) => e.EventType === 'FileClosed').map((e) => e.EventData as FileClosedData);
}

describe('HLS segment gaps', () => {
  it('segments that answer 404 as the stream ends are no gap: nothing follows them', async () => {
    const closed = await record([2, 3]);
    expect(closed).toHaveLength(1);
    expect(closed[0]!.Duration).toBeGreaterThan(0.5); // segment 1 was written
    expect(closed[0]!.Gaps ?? []).toEqual([]);
  });

  it('a first segment that never arrives whole is no gap of the file its successor opens', async () => {
    const closed = await record([], [1]);
    expect(closed).toHaveLength(1);
    expect(closed[0]!.Gaps ?? []).toEqual([]);
  });

  it('a missed segment with a written one after it is one gap, where it sits', async () => {
    const clip = hlsClips('fmp4')[0]!;
    const closed = await record([2]);
    expect(closed).toHaveLength(1);
    const gaps = closed[0]!.Gaps ?? [];
    expect(gaps).toHaveLength(1);
    expect(gaps[0]!.Reason).toBe('hls-segment');
    expect(gaps[0]!.DurationMs).toBe(Math.round(clip.segments[2]!.duration * 1000));
    // Segment 1 is the file's first: the hole starts where it ends.
    expect(Math.abs(gaps[0]!.StartMs - clip.segments[1]!.duration * 1000)).toBeLessThanOrEqual(50);
  });
});
