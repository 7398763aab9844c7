// After a stream ends, the simulator's CDN keeps the segments already cut (a while), like a real one; the playlist is gone at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim } from './helpers.js';

const ROOM = 23121;

describe('HLS after the stream ends', () => {
  let sim: Awaited<ReturnType<typeof startSim>>;
  beforeAll(async () => {
    sim = await startSim([{ roomId: ROOM, live: true, formats: ['fmp4'], liveStream: false }]);
  });
  afterAll(() => sim?.close());

  it('answers 404 for the playlist and new segments, 200 for the segments listed before the end', async () => {
    const base = `${sim.url}/live-bvc/1/live_${ROOM}_1`;
    const playlist = await fetch(`${base}/index.m3u8`);
    expect(playlist.status).toBe(200);
    const listed = (await playlist.text()).split('\n').filter((l) => /^\d+\.m4s$/.test(l));
    expect(listed.length).toBeGreaterThan(2);
    const last = Number.parseInt(listed.at(-1)!, 10);
    sim.sim.setLive(ROOM, false);
    expect((await fetch(`${base}/index.m3u8`)).status).toBe(404);
    for (const uri of listed.slice(-2)) {
      const seg = await fetch(`${base}/${uri}`);
      expect(seg.status, uri).toBe(200);
      expect((await seg.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    expect((await fetch(`${base}/${last + 3}.m4s`)).status).toBe(404);
  });
});
