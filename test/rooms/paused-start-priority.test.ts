// A reconnect that meets the shared API pause keeps its start priority: refused calls are not the stream failing (soak seed 5151 run 45).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProcessLimiter } from '../../src/bilibili/api-limiter.js';
import { logRing } from '../../src/log/logger.js';
import { type Harness, roomOf, startHarness } from './harness.js';

const ROOM = 45_601;
const PAUSE_MS = 5000;

async function until(what: string, pred: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a reconnect during an API pause', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rooms: [{ roomId: ROOM, live: true }] });
    await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM);
  });
  afterAll(() => h?.close());

  it('asks for its stream at start priority once the pause ends, however often the pause refused it', async () => {
    const limiter = getProcessLimiter();
    let refused = 0;
    const off = logRing.onEntry((_id, l) => void (l.RoomId === ROOM && String(l['@mt']).startsWith('cannot start the stream: API calls are paused') && refused++));
    const plays = (): number => h.sim.room(ROOM).apiLog.filter((l) => l.path.endsWith('getRoomPlayInfo')).length;
    const before = plays();
    // The stream drops while every live-API call is paused (as after another room's -352): each reconnect attempt,
    // one a second, is refused without a call.
    limiter.pause(PAUSE_MS);
    h.sim.addFault(ROOM, { kind: 'stream-cut', afterMs: 0 });
    await until('two refused reconnects', () => refused >= 2);
    off();
    // The budget is spent when the pause ends, so the room's next call waits for its turn: at which priority?
    limiter.setBudgetPerMinute(1);
    try {
      await until('a call of the room waiting in the budget', () => limiter.usage().queued.start + limiter.usage().queued.info > 0, PAUSE_MS + 20_000);
      // Without the fix the refusals counted as failed connections, and the room waited at `info`, behind every check.
      expect(limiter.usage().queued).toMatchObject({ start: 1, info: 0 });
    } finally {
      limiter.setBudgetPerMinute(600);
    }
    await until('the reconnect asked for its stream', () => plays() > before);
  }, 90_000);
});
