// The live preview of a room recording HLS fMP4: GET /api/room/{id}/live.mp4 gives the file's init section as written,
// then a run of the file's own fragments starting on a keyframe; ffprobe reads what was served; live.flv names live.mp4.
import { readFileSync, writeFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecorderEvent } from '../../src/events/types.js';
import { boxes } from '../../src/hls/mp4-boxes.js';
import { fragmentsOf, keyInfoOf } from '../../src/preview/mp4-fragments.js';
import { probe } from '../support/media-tools.js';
import { eventually, startWebSetup, type WebSetup } from '../web/setup.js';

const ROOM = 47_201;
type Ev<T extends RecorderEvent['EventType']> = RecorderEvent & { EventType: T };

describe('live preview of an HLS fMP4 room', () => {
  let s: WebSetup;
  beforeAll(async () => {
    s = await startWebSetup({
      rooms: [{ roomId: ROOM, name: 'fmp4', title: 'fmp4', live: true, bitrateKbps: 400, formats: ['fmp4'] }],
      record: [ROOM], roomConfig: { [ROOM]: { RecordingProtocol: 'hls-fmp4' } },
    });
    await eventually('recording 3 s', () => (s.service.recorder.findRoom(ROOM)?.recordingStats.fileMaxTimestamp ?? 0) > 3000, 90_000, 200);
  }, 120_000);
  afterAll(async () => s?.close());

  it('serves the init section as written, then whole fragments of the file from a keyframe, as video/mp4', async () => {
    const opening = s.events.filter((e): e is Ev<'FileOpening'> => e.EventType === 'FileOpening' && e.EventData.RoomId === ROOM).at(-1)!;
    expect(opening.EventData.RelativePath).toMatch(/\.mp4$/);
    const flv = await fetch(`${s.url}/api/room/${ROOM}/live.flv`);
    expect(flv.status).toBe(409);
    expect(((await flv.json()) as { message: string }).message).toContain('live.mp4');
    const got: Buffer[] = [];
    const res = await new Promise<IncomingMessage>((resolve, reject) => get(`${s.url}/api/room/${ROOM}/live.mp4`, resolve).on('error', reject));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    res.on('data', (c: Buffer) => got.push(c));
    // The last whole segment at once, then more as they are written.
    const moofs = (): number => boxes(Buffer.concat(got)).filter((b) => b.type === 'moof').length;
    await eventually('a first fragment', () => moofs() > 0, 60_000, 200);
    const first = moofs();
    await eventually('later fragments', () => moofs() > first, 60_000, 200);
    res.destroy();
    const bytes = Buffer.concat(got);
    const file = readFileSync(join(s.workDir, opening.EventData.RelativePath));
    // The head: the file's bytes before its first moof (ftyp, moov, the source box).
    const fileBoxes = boxes(file);
    const headEnd = fileBoxes.find((b) => b.type === 'moof')!.start;
    expect(fileBoxes[0]!.type).toBe('ftyp');
    expect(bytes.subarray(0, headEnd).equals(file.subarray(0, headEnd))).toBe(true);
    // Then a run of the file from a fragment that begins with a keyframe (whole boxes only: the reader stopped mid-way).
    const served = boxes(bytes, headEnd);
    expect(served[0]!.type).toBe('moof');
    const whole = bytes.subarray(headEnd, served.at(-1)!.end);
    const at = file.indexOf(whole.subarray(0, 4096));
    expect(at).toBeGreaterThanOrEqual(headEnd);
    expect(file.subarray(at, at + whole.length).equals(whole)).toBe(true);
    const frags = fragmentsOf(whole, keyInfoOf(file.subarray(0, headEnd)));
    expect(frags.length).toBeGreaterThan(1);
    expect(frags[0]!.key).toBe(true);
    // A player reads it: head plus fragments is a playable fragmented MP4.
    const out = join(s.workDir, 'served.mp4');
    const mdatEnd = served.filter((b) => b.type === 'mdat').at(-1)!.end;
    writeFileSync(out, bytes.subarray(0, mdatEnd));
    const p = await probe(out);
    expect(p.errors).toBe('');
    expect(p.codecs).toContain('h264');
  }, 150_000);
});
