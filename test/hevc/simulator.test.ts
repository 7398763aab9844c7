// The simulator's HEVC rooms: _prohevc entries serve codec-12 FLV, hevcOnly has no avc entries, codec-switch at the next connect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, liveFetch, startSim } from '../simulator/helpers.js';

/** Reads the response until the first video tag; returns byte 0 of its body (0x17 AVC header, 0x1c HEVC header). */
async function firstVideoByteOf(url: string): Promise<number> {
  const ctrl = new AbortController();
  const res = await fetch(url, { signal: ctrl.signal });
  expect(res.status).toBe(200);
  let buf = Buffer.alloc(0);
  try {
    for await (const chunk of res.body!) {
      buf = Buffer.concat([buf, chunk as Uint8Array]);
      for (let pos = 13; pos + 12 <= buf.length;) {
        if (buf[pos] === 9) return buf[pos + 11]!;
        pos += 11 + buf.readUIntBE(pos + 1, 3) + 4;
      }
    }
  } finally {
    ctrl.abort();
  }
  return -1;
}

describe('simulator HEVC rooms', () => {
  let sim: Awaited<ReturnType<typeof startSim>>;
  beforeAll(async () => {
    sim = await startSim([{ roomId: 28001, live: true, hevc: true }, { roomId: 28002, live: true, hevcOnly: true }]);
  });
  afterAll(() => sim?.close());

  const flvEntries = async (roomId: number): Promise<{ codec_name: string; base_url: string; url_info: { host: string; extra: string }[] }[]> => {
    const body: any = await (await liveFetch(sim.url, '/xlive/web-room/v2/index/getRoomPlayInfo', { room_id: roomId, protocol: '0,1', format: '0,1,2', codec: '0,1', qn: 10000 })).json();
    return body.data.playurl_info.playurl.stream[0].format[0].codec;
  };
  const urlOf = (e: { base_url: string; url_info: { host: string; extra: string }[] }): string => e.url_info[0]!.host + e.base_url + e.url_info[0]!.extra;

  it('hevc rooms serve codec-12 FLV on _prohevc, AVC on the avc entry; hevcOnly offers no avc', async () => {
    const both = await flvEntries(28001);
    expect(both.map((e) => e.codec_name)).toEqual(['avc', 'hevc']);
    expect(both[1]!.base_url).toContain('_prohevc');
    expect(await firstVideoByteOf(urlOf(both[0]!))).toBe(0x17);
    expect(await firstVideoByteOf(urlOf(both[1]!))).toBe(0x1c);
    const only = await flvEntries(28002);
    expect(only.map((e) => e.codec_name)).toEqual(['hevc']);
    expect(await firstVideoByteOf(urlOf(only[0]!))).toBe(0x1c);
  });

  it('codec-switch swaps the codec of every URL from the next connect, and a second one swaps back', async () => {
    const [avc, hevc] = await flvEntries(28001);
    expect((await control(sim.url, '/_sim/rooms/28001/faults', { kind: 'codec-switch' })).status).toBe(200);
    expect(await firstVideoByteOf(urlOf(avc!))).toBe(0x1c);
    expect(await firstVideoByteOf(urlOf(hevc!))).toBe(0x17);
    await control(sim.url, '/_sim/rooms/28001/faults', { kind: 'codec-switch' });
    expect(await firstVideoByteOf(urlOf(avc!))).toBe(0x17);
  });
});
