// The simulator's live-stream rooms: FLV and fMP4 HLS carry the same frames on one clock, and the faults do what they say.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlvParser } from '../../src/flv/parser.js';
import { TagType } from '../../src/flv/tag.js';
import { readSamples } from '../../src/hls/backfill/fmp4-samples.js';
import { parseInit } from '../../src/hls/mp4-boxes.js';
import { frameKey } from '../../src/rooms/gaps/frames.js';
import type { Simulator } from '../../src/simulator/index.js';
import { startSim } from '../simulator/helpers.js';

const ROOM = 23841;
const base = (url: string): string => `${url}/live-bvc/1/live_${ROOM}_1`;

async function bytes(url: string): Promise<{ status: number; body: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

describe('simulator live-stream rooms', () => {
  let sim: Simulator;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ sim, url, close } = await startSim([{ roomId: ROOM, live: true, formats: ['flv', 'fmp4'], liveStream: { streamAgeSec: 30, hlsRetentionSec: 5 } }]));
  });
  afterAll(() => close());

  it('serves the FLV frames, byte for byte, in the HLS segments of the same stream time', async () => {
    const res = await fetch(`${url}/live-bvc/1/live_${ROOM}_1.flv`);
    const reader = res.body!.getReader();
    const chunks: Buffer[] = [];
    const until = Date.now() + 2500;
    while (Date.now() < until) chunks.push(Buffer.from((await reader.read()).value!));
    await reader.cancel();
    const video = new FlvParser().push(Buffer.concat(chunks)).tags.filter((t) => t.type === TagType.Video && t.data![1] === 1);
    expect(video[0]!.flag & 2).toBe(2); // a keyframe first: the GOP cache
    expect(video[0]!.timestamp % 960).toBe(0);
    expect(video[0]!.timestamp).toBeGreaterThan(29_000); // the stream's own timestamps
    const list = await (await fetch(`${base(url)}/index.m3u8`)).text();
    const init = (await bytes(`${base(url)}/${/URI="([^"]+)"/.exec(list)![1]}`)).body;
    const mp4 = parseInit(init)!;
    const vid = mp4.tracks.find((t) => t.handler === 'vide')!;
    const hls = new Map<number, string>();
    for (const seg of list.split('\n').filter((l) => l.endsWith('.m4s'))) {
      for (const s of readSamples((await bytes(`${base(url)}/${seg}`)).body, mp4).samples) {
        if (s.trackId === vid.trackId) hls.set(Math.round((s.dts * 1000) / vid.timescale), frameKey(true, s.bytes));
      }
    }
    const shared = video.filter((t) => hls.has(t.timestamp));
    expect(shared.length).toBeGreaterThan(10);
    for (const t of shared) expect(frameKey(true, t.data!.subarray(5))).toBe(hls.get(t.timestamp));
  });

  it('keeps a segment hlsRetentionSec after it left the list, then answers 404', async () => {
    const list = await (await fetch(`${base(url)}/index.m3u8`)).text();
    const first = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(list)![1]);
    expect((await bytes(`${base(url)}/${first - 3}.m4s`)).status).toBe(200); // left ~3 s ago, kept 5 s
    expect((await bytes(`${base(url)}/${first - 12}.m4s`)).status).toBe(404);
  });

  it('flv-outage refuses the FLV while HLS serves; playlist-stall freezes the list; hls-foreign changes the frames', async () => {
    expect(sim.addFault(ROOM, { kind: 'flv-outage', seconds: 2 })).toMatchObject({ kind: 'flv-outage' });
    await expect(fetch(`${url}/live-bvc/1/live_${ROOM}_1.flv`)).rejects.toThrow();
    expect((await bytes(`${base(url)}/index.m3u8`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2200));
    const res = await fetch(`${url}/live-bvc/1/live_${ROOM}_1.flv`);
    expect(res.status).toBe(200);
    await res.body!.cancel();

    sim.addFault(ROOM, { kind: 'playlist-stall', seconds: 2 });
    const a = await (await fetch(`${base(url)}/index.m3u8`)).text();
    await new Promise((r) => setTimeout(r, 1200));
    expect(await (await fetch(`${base(url)}/index.m3u8?trid=fresh`)).text()).toBe(a);
    await new Promise((r) => setTimeout(r, 1200));
    expect(await (await fetch(`${base(url)}/index.m3u8`)).text()).not.toBe(a);

    const seg = /\n(\d+\.m4s)\n$/.exec(await (await fetch(`${base(url)}/index.m3u8`)).text())![1]!;
    const own = (await bytes(`${base(url)}/${seg}`)).body;
    sim.addFault(ROOM, { kind: 'hls-foreign' });
    expect((await bytes(`${base(url)}/${seg}`)).body.equals(own)).toBe(false);
    expect(() => sim.addFault(ROOM, { kind: 'hls-retention', seconds: -1 })).toThrow();
  });

  it('refuses live-stream faults on other rooms', () => {
    // FLV+fMP4 rooms run on one clock by default (issue 47): a room taken off it refuses the faults.
    sim.createRoom({ roomId: ROOM + 1, live: true, liveStream: false });
    expect(() => sim.addFault(ROOM + 1, { kind: 'flv-outage', seconds: 1 })).toThrow(/live-stream room/);
    sim.createRoom({ roomId: ROOM + 2, live: true });
    expect(() => sim.addFault(ROOM + 2, { kind: 'flv-outage', seconds: 1 })).not.toThrow();
  });
});
