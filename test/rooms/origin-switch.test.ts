// The hand-off between two connections at a GOP boundary (src/rooms/origin-switch.ts), over real simulator responses and the real FLV pipeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream, type StreamDownload } from '../../src/bilibili/stream-download.js';
import { recentGroups, seedGroups } from '../../src/flv/rules/remove-duplicated-chunk.js';
import { FlvStream } from '../../src/flv/stream.js';
import type { FlvTag } from '../../src/flv/tag.js';
import { type HandOffSource, standby } from '../../src/rooms/origin-switch.js';
import { startSim } from '../simulator/helpers.js';

const ROOM = 9301;
const OTHER = 9302;
let sim: Awaited<ReturnType<typeof startSim>>;
beforeAll(async () => {
  sim = await startSim([
    { roomId: ROOM, live: true, formats: ['flv'], variants: { bluray: true } },
    // No variants: each response starts its own clock at 0, so none of its GOPs is one of ROOM's (a stand-in for a real re-encode).
    { roomId: OTHER, live: true, formats: ['flv'] },
  ]);
  await new Promise((r) => setTimeout(r, 3000)); // ROOM's live clock is well ahead of where an OTHER response starts
});
afterAll(() => sim.close());

const url = (room: number, suffix = '') => `${sim.url}/live-bvc/1/live_${room}_1${suffix}.flv?qn=10000`;
/** The simulator's timestamp SEI of a video frame (its stream clock), or null. */
const seiOf = (t: FlvTag): number | null => {
  const m = t.data ? /liverec-sim-time(\d{11})/.exec(Buffer.from(t.data).toString('latin1')) : null;
  return m ? Number(m[1]) : null;
};

/** A running connection through the recording pipeline (no file): what it kept, and the frames it let through. */
function running(download: StreamDownload): HandOffSource & { frames: number[]; done: Promise<void> } {
  const stream = new FlvStream({ preset: 'recording', writer: null, stripFillerOnCopy: true });
  const frames: number[] = [];
  let cut = false;
  const done = download.consume((chunk) => {
    if (cut) return;
    const step = stream.push(Buffer.from(chunk));
    for (const g of step.groups) for (const a of g.actions) if (a.kind === 'Data') for (const t of a.tags) { const s = seiOf(t); if (s !== null) frames.push(s); }
  });
  return {
    frames, done,
    keptGroups: () => recentGroups(stream.processor.session),
    handOff: () => {
      cut = true;
      download.stop();
      return recentGroups(stream.processor.session);
    },
  };
}

/** Reads the handed-over input through a pipeline seeded with the old connection's GOPs for `ms`: the frames it writes. */
async function continueWith(input: Awaited<ReturnType<typeof standby>>, ms: number): Promise<number[]> {
  const stream = new FlvStream({ preset: 'recording', writer: null, stripFillerOnCopy: true });
  seedGroups(stream.processor.session, input!.kept);
  const frames: number[] = [];
  const timer = setTimeout(() => input!.input.stop(), ms);
  await input!.input.consume((chunk) => {
    const step = stream.push(Buffer.from(chunk));
    for (const g of step.groups) for (const a of g.actions) if (a.kind === 'Data') for (const t of a.tags) { const s = seiOf(t); if (s !== null) frames.push(s); }
  });
  clearTimeout(timer);
  return frames;
}

describe('standby and hand-off', () => {
  it('cuts at a GOP both connections carry: the next connection goes on with the very next frame', async () => {
    const old = running(await openStream(url(ROOM, '_bluray')));
    await new Promise((r) => setTimeout(r, 2500));
    const result = await standby(await openStream(url(ROOM)), old, { matchTimeoutMs: 15_000, maxBufferBytes: 64 << 20 });
    expect(result?.shared).toBe(true);
    await old.done;
    const next = await continueWith(result, 2500);
    const step = old.frames[1]! - old.frames[0]!;
    expect(next.length).toBeGreaterThan(10);
    expect(next[0]).toBe(old.frames.at(-1)! + step);
    const all = [...old.frames, ...next];
    expect(all.every((s, i) => i === 0 || s - all[i - 1]! === step)).toBe(true);
  }, 30_000);

  it('without a shared GOP, cuts the old connection at its last whole GOP after the match timeout', async () => {
    const old = running(await openStream(url(ROOM, '_bluray')));
    await new Promise((r) => setTimeout(r, 1500));
    const t0 = Date.now();
    const result = await standby(await openStream(url(OTHER)), old, { matchTimeoutMs: 2500, maxBufferBytes: 64 << 20 });
    expect(result?.shared).toBe(false);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2400);
    await old.done;
    expect((await continueWith(result, 1500)).length).toBeGreaterThan(10); // the other stream is written from its first GOP
  }, 30_000);

  it('resolves null and leaves the old connection untouched when the new one ends first', async () => {
    const old = running(await openStream(url(ROOM, '_bluray')));
    await new Promise((r) => setTimeout(r, 1000));
    const pending = standby(await openStream(url(ROOM)), old, { matchTimeoutMs: 15_000, maxBufferBytes: 64 << 20 });
    sim.sim.originOutage(ROOM, 60_000); // ends the origin response
    expect(await pending).toBeNull();
    const before = old.frames.length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(old.frames.length).toBeGreaterThan(before); // still recording
    old.handOff();
    sim.sim.originReturn(ROOM);
  }, 30_000);
});
