// `liverec check` as a real process against the strict simulator: text and --json, special rooms, a replayed capture, exit 2 for bad flags.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, startSim } from '../simulator/helpers.js';
import { startCli } from './helpers.js';

let sim: Awaited<ReturnType<typeof startSim>>;
beforeAll(async () => {
  sim = await startSim([
    { roomId: 34601, shortId: 346, live: true, hevc: true, name: 'normal' },
    { roomId: 34602, live: true, special: 'paid' },
    { roomId: 34603, live: false },
    { roomId: 34604, live: true },
    { roomId: 34605, live: true, av1Only: true, formats: ['ts'] },
  ]);
});
afterAll(() => sim.close());

async function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const p = startCli(['check', ...args]);
  const { code } = await p.exit;
  return { code, out: p.stdout(), err: p.stderr() };
}

describe('liverec check', () => {
  it('--json: ids, live state, reason, every stream offered and the one the recorder would choose', async () => {
    const r = await run(['346', '34602', '34603', '34699', '--live-api-host', sim.url, '--json']);
    expect(r.code, r.err).toBe(0);
    const { rooms } = JSON.parse(r.out) as { rooms: any[] };
    expect(rooms.map((x) => [x.query, x.roomId, x.shortId, x.liveStatus, x.unavailableReason])).toEqual([
      [346, 34601, 346, 1, null], [34602, 34602, 0, 1, 'paid'], [34603, 34603, 0, 0, null], [34699, null, null, null, 'notFound'],
    ]);
    const normal = rooms[0];
    expect(normal.streams.map((s: any) => `${s.protocol}/${s.format}/${s.codec}`)).toEqual([
      'http_stream/flv/avc', 'http_stream/flv/hevc', 'http_hls/ts/avc', 'http_hls/ts/hevc', 'http_hls/fmp4/avc', 'http_hls/fmp4/hevc',
    ]);
    expect(normal.streams[0]).toMatchObject({ qn: 10000, acceptQn: [10000, 400, 250, 150], hosts: 3, drm: false });
    expect(normal.choice).toMatchObject({ protocol: 'http_stream', format: 'flv', codec: 'avc', qn: 10000 });
    expect(normal.quality.why).toMatch(/avc10000 is the first offered/);
    expect(normal.protocol.why).toMatch(/flv is the first the room offers/);
    expect(rooms[1].streams.every((s: any) => s.drm)).toBe(true);
    expect(rooms[1].choice).toBeNull();
    expect(rooms[2].why).toMatch(/not live/);
    expect(rooms[3].error.code).toBe('API_ROOM_NOT_FOUND');
  });

  it('follows --recording-quality and --recording-protocol like the recorder, and names the stream of a replayed capture', async () => {
    const hevc = JSON.parse((await run(['34601', '--live-api-host', sim.url, '--json', '--recording-quality', 'hevc400', '--recording-protocol', 'hls-fmp4'])).out);
    expect(hevc.rooms[0].choice).toMatchObject({ protocol: 'http_hls', format: 'fmp4', codec: 'hevc', qn: 400 });
    const capture = JSON.parse(readFileSync('test/fixtures/bili-real/api/rustsrec_getRoomPlayInfo_room22908869_2025-07_flv_ts_fmp4_avc_hevc_minihevc.json', 'utf8'));
    await control(sim.url, '/_sim/rooms/34604/captured', { endpoint: 'getRoomPlayInfo', body: capture });
    const replay = JSON.parse((await run(['34604', '--live-api-host', sim.url, '--json', '--recording-quality', 'hevc400,avc250'])).out);
    expect(replay.rooms[0].streams).toHaveLength(6);
    expect(replay.rooms[0].choice).toMatchObject({ format: 'flv', codec: 'hevc', qn: 400 });
  });

  it('names AV1 over HLS TS (codec 2 in a ts format) when the quality asks for av1', async () => {
    const r = JSON.parse((await run(['34605', '--live-api-host', sim.url, '--json', '--recording-quality', 'av110000', '--recording-protocol', 'hls-ts'])).out);
    expect(r.rooms[0].streams).toEqual([expect.objectContaining({ format: 'ts', codec: 'av1' })]);
    expect(r.rooms[0].choice).toMatchObject({ protocol: 'http_hls', format: 'ts', codec: 'av1', qn: 10000 });
  });

  it('prints a readable report', async () => {
    const r = await run(['34602', '--live-api-host', sim.url]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/room 34602/);
    expect(r.out).toMatch(/unavailableReason: paid/);
    expect(r.out).toMatch(/drm yes/);
    expect(r.out).toMatch(/would record: +nothing/);
  });

  it('refuses bad arguments and flags with exit 2', async () => {
    for (const args of [[], ['abc'], ['1', '--live-api-host', 'nope'], ['1', '--bogus'], ['1', '--recording-protocol', 'rtmp']]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(/^liverec: /m); // a one-line refusal naming the problem
    }
  });
});
