// The live preview of a room recording HLS MPEG-TS: GET /api/room/{id}/live.ts gives the file's own segments (each
// from its PAT), which liverec's TS scanner reads as video and audio; live.flv names live.ts for such a room.
import { readFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecorderEvent } from '../../src/events/types.js';
import { TsScanner } from '../../src/hls/ts-packets.js';
import { eventually, startWebSetup, type WebSetup } from '../web/setup.js';

const ROOM = 47_101;
type Ev<T extends RecorderEvent['EventType']> = RecorderEvent & { EventType: T };

describe('live preview of an HLS TS room', () => {
  let s: WebSetup;
  beforeAll(async () => {
    s = await startWebSetup({
      rooms: [{ roomId: ROOM, name: 'ts', title: 'ts', live: true, bitrateKbps: 400, formats: ['ts'] }],
      record: [ROOM], roomConfig: { [ROOM]: { RecordingProtocol: 'hls-ts' } },
    });
    await eventually('recording 3 s', () => (s.service.recorder.findRoom(ROOM)?.recordingStats.fileMaxTimestamp ?? 0) > 3000, 90_000, 200);
  }, 120_000);
  afterAll(async () => s?.close());

  it('serves whole segments of the file being written, from a PAT, as MPEG-TS', async () => {
    const opening = s.events.filter((e): e is Ev<'FileOpening'> => e.EventType === 'FileOpening' && e.EventData.RoomId === ROOM).at(-1)!;
    expect(opening.EventData.RelativePath).toMatch(/\.ts$/);
    const flv = await fetch(`${s.url}/api/room/${ROOM}/live.flv`);
    expect(flv.status).toBe(409);
    expect(((await flv.json()) as { message: string }).message).toContain('live.ts');
    const got: Buffer[] = [];
    const res = await new Promise<IncomingMessage>((resolve, reject) => get(`${s.url}/api/room/${ROOM}/live.ts`, resolve).on('error', reject));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp2t');
    res.on('data', (c: Buffer) => got.push(c));
    // The last whole segment at once, then at least one more as it is written.
    const first = Buffer.concat(got).length;
    await eventually('a second segment', () => Buffer.concat(got).length > Math.max(first, 1) * 1.5 && got.length > 1, 60_000, 200);
    res.destroy();
    const bytes = Buffer.concat(got);
    expect(bytes.length % 188).toBe(0);
    expect(bytes[0]).toBe(0x47);
    // A segment's start: its tables (SDT, PAT, PMT) come first, the PAT among the first packets.
    const pids = Array.from({ length: 4 }, (_, k) => ((bytes[k * 188 + 1]! & 0x1f) << 8) | bytes[k * 188 + 2]!);
    expect(pids).toContain(0);
    const scan = new TsScanner();
    scan.push(bytes);
    expect(scan.videoFrames).toBeGreaterThan(10);
    expect(scan.audioFrames).toBeGreaterThan(10);
    // Byte for byte the file's own: the stream is a run of the file.
    const file = readFileSync(join(s.workDir, opening.EventData.RelativePath));
    expect(file.indexOf(bytes.subarray(0, 4096))).toBeGreaterThanOrEqual(0);
    expect(file.indexOf(bytes.subarray(bytes.length - 4096))).toBeGreaterThanOrEqual(0);
  }, 120_000);
});
