// `liverec check` as a real process against the strict simulator: text and --json, special rooms, a replayed capture, exit 2 for bad flags.
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, startSim } from '../simulator/helpers.js';
import { startCli } from './helpers.js';

let sim: Awaited<ReturnType<typeof startSim>>;
beforeAll(async () => {
  // The simulator caps guests at qn 250 (its default, as the service does): checks of qn 10000 and the origin ask with a
  // login cookie (LOGIN); the guest's answer is asserted where it is the subject.
  sim = await startSim([
    { roomId: 34601, shortId: 346, live: true, hevc: true, name: 'normal' },
    { roomId: 34602, live: true, special: 'paid' },
    { roomId: 34603, live: false },
    { roomId: 34604, live: true },
    { roomId: 34605, live: true, av1Only: true, formats: ['ts'] },
    { roomId: 34606, live: true, variants: { bluray: true }, guestQnCap: false },
    { roomId: 34607, live: true },
  ]);
});
afterAll(() => sim.close());

/** A login cookie (SESSDATA, no buvid3: the guest identity still fills that in); guests get qn 250 from play info. */
const LOGIN = ['--cookie', 'SESSDATA=secret'];

async function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const p = startCli(['check', ...args]);
  const { code } = await p.exit;
  return { code, out: p.stdout(), err: p.stderr() };
}

describe('liverec check', () => {
  it('--json: ids, live state, reason, every stream offered and the one the recorder would choose', async () => {
    const r = await run(['346', '34602', '34603', '34699', '--live-api-host', sim.url, '--json', ...LOGIN]);
    expect(r.code, r.err).toBe(3); // 34602 is paid, 34699 does not exist
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
    expect(rooms.map((x) => x.verdict)).toEqual(['recordable', 'notRecordable', 'offline', 'notRecordable']);
  });

  it('exits 0 when every room is recordable or offline (state printed), 3 when one is not, 1 when one cannot be checked', async () => {
    const ok = await run(['34601', '34603', '--live-api-host', sim.url]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/room 34603[^]*live state: +offline \(live_status 0\)/);
    expect((await run(['34699', '--live-api-host', sim.url])).code).toBe(3); // not found
    expect((await run(['34601', '34602', '--live-api-host', sim.url, '--json'])).code).toBe(3); // paid
    // Nothing listens there: the room could not be checked at all.
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const down = await run(['34601', '34699', '--live-api-host', `http://127.0.0.1:${closed}`]);
    expect(down.code, down.out).toBe(1);
    expect(down.out).toMatch(/verdict: +error/);
  });

  it('gives every offered stream its kind and evidence, by the recorder\'s classifier: _bluray is a re-encode, no suffix the origin', async () => {
    // The simulator's own streams: a _bluray variant at qn 10000 (suffix=bluray) against a plain one.
    const json = await run(['34606', '34601', '--live-api-host', sim.url, '--json', ...LOGIN]);
    expect(json.code, json.err).toBe(0);
    const [bluray, plain] = (JSON.parse(json.out) as { rooms: any[] }).rooms.map((room) => room.streams[0]);
    expect(bluray).toMatchObject({ format: 'flv', codec: 'avc', kind: 'reencode', evidence: expect.arrayContaining(['name suffix _bluray', 'suffix=bluray', 'qn 10000']) });
    expect(plain).toMatchObject({ format: 'flv', codec: 'avc', kind: 'origin', evidence: expect.arrayContaining(['name without suffix', 'qn 10000']) });
    // A guest is served the plain room at qn 250 (docs/bilibili-2026.md, 2025-07 capture): a transcode, by its qn.
    const guest = JSON.parse((await run(['34601', '--live-api-host', sim.url, '--json'])).out).rooms[0].streams[0];
    expect(guest).toMatchObject({ format: 'flv', codec: 'avc', qn: 250, kind: 'transcode', evidence: expect.arrayContaining(['qn 250']) });
    const text = await run(['34606', '34601', '--live-api-host', sim.url, ...LOGIN]);
    const [first, second] = text.out.split(/\n\n/);
    expect(first).toMatch(/http_stream +flv +avc .*\n +reencode +name suffix _bluray, .*suffix=bluray/);
    expect(second).toMatch(/http_stream +flv +avc .*\n +origin +name without suffix/);

    // A replayed capture, once with suffix=bluray in its URLs and once without: the answers differ.
    const capture = JSON.parse(readFileSync('test/fixtures/bili-real/api/rustsrec_getRoomPlayInfo_room22908869_2025-07_flv_ts_fmp4_avc_hevc_minihevc.json', 'utf8'));
    const variant = (suffix: string) => {
      const copy = structuredClone(capture);
      const codec = copy.data.playurl_info.playurl.stream[0].format[0].codec[0];
      Object.assign(codec, { current_qn: 10000, accept_qn: [10000, 250] });
      for (const u of codec.url_info) u.extra = u.extra.replace('qn=250', 'qn=10000').replace(/&?suffix=[^&]*/, '') + (suffix ? `&suffix=${suffix}` : '');
      return copy;
    };
    await control(sim.url, '/_sim/rooms/34607/captured', { endpoint: 'getRoomPlayInfo', body: variant('bluray') });
    const replayed = (JSON.parse((await run(['34607', '--live-api-host', sim.url, '--json'])).out) as { rooms: any[] }).rooms[0].streams[0];
    await control(sim.url, '/_sim/rooms/34607/captured', { endpoint: 'getRoomPlayInfo', body: variant('') });
    const without = (JSON.parse((await run(['34607', '--live-api-host', sim.url, '--json'])).out) as { rooms: any[] }).rooms[0].streams[0];
    expect(replayed).toMatchObject({ kind: 'reencode', evidence: expect.arrayContaining(['suffix=bluray']) });
    expect(without.kind).not.toBe('reencode');
    expect(without.evidence).not.toContain('suffix=bluray');
  });

  it('names AV1 over HLS TS (codec 2 in a ts format) when the quality asks for av1', async () => {
    const r = JSON.parse((await run(['34605', '--live-api-host', sim.url, '--json', '--recording-quality', 'av110000', '--recording-protocol', 'hls-ts'])).out);
    expect(r.rooms[0].streams).toEqual([expect.objectContaining({ format: 'ts', codec: 'av1' })]);
    expect(r.rooms[0].choice).toMatchObject({ protocol: 'http_hls', format: 'ts', codec: 'av1', qn: 10000 });
  });

  it('prints a readable report', async () => {
    const r = await run(['34602', '--live-api-host', sim.url]);
    expect(r.code).toBe(3);
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
