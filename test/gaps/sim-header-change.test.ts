// The simulator's live-stream rooms across a header change: a listed segment never changes (RFC 8216 §6.2.1); the new
// parameters start at a segment boundary with their own init section after a discontinuity (§4.3.2.3), where the FLV
// switches too, with the same frames on both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlvParser } from '../../src/flv/parser.js';
import { TagFlag, TagType } from '../../src/flv/tag.js';
import { readSamples } from '../../src/hls/backfill/fmp4-samples.js';
import { parseInit } from '../../src/hls/mp4-boxes.js';
import { parsePlaylist, type MediaPlaylist } from '../../src/hls/playlist.js';
import { frameKey } from '../../src/rooms/gaps/frames.js';
import type { Simulator } from '../../src/simulator/index.js';
import { startSim } from '../simulator/helpers.js';

const ROOM = 23851;
const base = (url: string): string => `${url}/live-bvc/1/live_${ROOM}_1`;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function bytes(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

const media = async (url: string): Promise<MediaPlaylist> => parsePlaylist(await (await fetch(`${base(url)}/index.m3u8`)).text()) as MediaPlaylist;

describe('simulator live-stream rooms: header change', () => {
  let sim: Simulator;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ sim, url, close } = await startSim([{ roomId: ROOM, live: true, formats: ['flv', 'fmp4'], liveStream: { streamAgeSec: 30, hlsRetentionSec: 60 } }]));
  });
  afterAll(() => close());

  it('keeps listed segments, starts the new clip at a boundary with a new init, and the FLV switches at the same frame', async () => {
    const res = await fetch(`${url}/live-bvc/1/live_${ROOM}_1.flv`);
    const reader = res.body!.getReader();
    const chunks: Buffer[] = [];
    const read = async (ms: number): Promise<void> => {
      const until = Date.now() + ms;
      while (Date.now() < until) chunks.push(Buffer.from((await reader.read()).value!));
    };
    await read(500);
    const before = await media(url);
    const kept = new Map<number, Buffer>();
    for (const s of before.segments) kept.set(s.seq, await bytes(`${base(url)}/${s.uri}`));
    const oldMap = before.segments[0]!.map;
    sim.addFault(ROOM, { kind: 'header-change', midStream: true });
    await read(3500);
    await reader.cancel();

    // Every segment listed before the change has the same bytes and title after it.
    const after = await media(url);
    for (const [seq, body] of kept) {
      expect((await bytes(`${base(url)}/${seq}.m4s`)).equals(body)).toBe(true);
      const listed = after.segments.find((s) => s.seq === seq);
      if (listed) expect(listed.map).toBe(oldMap);
    }
    const first = after.segments.find((s) => s.map !== oldMap)!;
    expect(first).toBeDefined();
    expect(first.discontinuity).toBe(true);
    expect(first.seq).toBeGreaterThan(Math.max(...kept.keys()));
    const oldInit = parseInit(await bytes(`${base(url)}/${oldMap}`))!;
    const newInit = parseInit(await bytes(`${base(url)}/${first.map}`))!;
    const size = (i: typeof oldInit): string => i.tracks.filter((t) => t.handler === 'vide').map((t) => `${t.width}x${t.height}`).join();
    expect(size(newInit)).not.toBe(size(oldInit));

    // The FLV carries the new sequence header exactly where the HLS's new init starts, and the same frames after it.
    const tags = new FlvParser().push(Buffer.concat(chunks)).tags;
    const headers = tags.filter((t) => t.type === TagType.Video && t.flag & TagFlag.Header);
    expect(headers).toHaveLength(2);
    const vid = newInit.tracks.find((t) => t.handler === 'vide')!;
    const samples = readSamples(await bytes(`${base(url)}/${first.uri}`), newInit).samples.filter((s) => s.trackId === vid.trackId);
    const startMs = Math.round((samples[0]!.dts * 1000) / vid.timescale);
    expect(headers[1]!.timestamp).toBe(startMs);
    const flvAfter = tags.filter((t) => t.type === TagType.Video && !(t.flag & TagFlag.Header) && t.timestamp >= startMs);
    const flvBefore = tags.filter((t) => t.type === TagType.Video && !(t.flag & TagFlag.Header) && t.timestamp < startMs);
    expect(tags.indexOf(headers[1]!)).toBeGreaterThan(tags.indexOf(flvBefore.at(-1)!));
    const shared = samples.map((s) => ({ ms: Math.round((s.dts * 1000) / vid.timescale), key: frameKey(true, s.bytes) })).filter((s) => flvAfter.some((t) => t.timestamp === s.ms));
    expect(shared.length).toBeGreaterThan(5);
    for (const s of shared) expect(frameKey(true, flvAfter.find((t) => t.timestamp === s.ms)!.data!.subarray(5))).toBe(s.key);
  });

  it('counts the discontinuity once its segment left the window, and keeps serving the old init', async () => {
    const start = Date.now();
    let list = await media(url);
    while (list.segments.some((s) => s.discontinuity) && Date.now() - start < 30_000) {
      await sleep(500);
      list = await media(url);
    }
    const text = await (await fetch(`${base(url)}/index.m3u8`)).text();
    expect(text).toMatch(/#EXT-X-DISCONTINUITY-SEQUENCE:1\n/);
    expect(text).not.toMatch(/#EXT-X-DISCONTINUITY\n/);
    // A second change comes back to the first clip under a third init name: a client never mixes it with the first.
    const maps = new Set<string>();
    const first = await media(url);
    sim.addFault(ROOM, { kind: 'header-change' });
    while (Date.now() - start < 60_000) {
      const l = await media(url);
      for (const s of l.segments) maps.add(s.map);
      if (l.segments.some((s) => s.discontinuity)) break;
      await sleep(300);
    }
    maps.add(first.segments[0]!.map);
    expect(maps.size).toBe(2);
    expect([...maps].every((m) => /^h\d+0\.m4s$/.test(m))).toBe(true);
  });
});
