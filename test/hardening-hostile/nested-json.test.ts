// Issue 46, break 6: a 3.8 MB `[[[…]]]` live-API answer (under the 4 MiB cap) exhausted a room thread's 96 MB heap,
// and its healthy neighbour on the same thread went down with it. Now the answer is refused before parsing and only
// its room sees the error; the neighbour's session goes on untouched. Real simulator, real threads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overJsonBudget } from '../../src/bilibili/json-budget.js';
import { control } from '../simulator/helpers.js';
import { type Harness, startHarness } from '../rooms/harness.js';

const HOSTILE = 46601;
const NEIGHBOUR = 46602;

describe('a nested live-API answer fails only its room', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      rooms: [HOSTILE, NEIGHBOUR].map((roomId) => ({ roomId, name: `n-${roomId}`, live: true, bitrateKbps: 600 })),
      roomsPerWorker: 2,
      // Every API call naming the hostile room gets the nested answer, from its first call on.
      beforeStart: async (_sim, url) => void await control(url, `/_sim/rooms/${HOSTILE}/faults`, { kind: 'api-malformed', variant: 'nested', durationMs: 600_000 }),
    });
  }, 60_000);
  afterAll(() => h?.close());

  it('the budget refuses the nesting in one pass and passes real answers', () => {
    const depth = 1_900_000;
    expect(overJsonBudget(`{"data":${'['.repeat(depth)}${']'.repeat(depth)}}`)).toMatch(/deeper than 32/);
    expect(overJsonBudget(`[${'0,'.repeat(600_000)}0]`)).toMatch(/more than 500000 tokens/);
    expect(overJsonBudget('{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"[[[[[","b":[[1]]}')).toBeNull();
  });

  it('the hostile room is answered nested again and again while its neighbour on the same thread records on', async () => {
    await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === NEIGHBOUR, 30_000);
    expect(h.service.recorder.workerCount).toBe(1);
    // Each nested answer the room thread received and refused; three mean it went on asking after the first two.
    const hostile = h.sim.room(HOSTILE);
    let poll: NodeJS.Timeout | undefined;
    let limit: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve, reject) => {
      poll = setInterval(() => {
        if (h.events.some((e) => e.EventType === 'SessionEnded' && e.EventData.RoomId === NEIGHBOUR)) reject(new Error('the neighbour\'s session ended'));
        else if (hostile.counters.apiHits.total >= 3) resolve();
      }, 50);
      limit = setTimeout(() => reject(new Error(`only ${hostile.counters.apiHits.total} API calls of the hostile room in 90 s`)), 90_000);
    }).finally(() => {
      clearInterval(poll);
      clearTimeout(limit);
    });
    expect(h.events.filter((e) => e.EventType === 'SessionEnded' && e.EventData.RoomId === NEIGHBOUR)).toEqual([]);
    expect(h.events.filter((e) => e.EventType === 'SessionStarted' && e.EventData.RoomId === NEIGHBOUR)).toHaveLength(1);
    expect(h.events.some((e) => e.EventData.RoomId === HOSTILE && e.EventType === 'FileOpening')).toBe(false);
  }, 120_000);
});
