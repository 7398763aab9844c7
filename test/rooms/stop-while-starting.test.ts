// Issue 45 defect 4: a stop while rooms are starting (waiting for API budget) cancels every start; no file opens
// after the stop began and every file opened is closed with FileClosed before close() returns.
import { afterEach, describe, expect, it } from 'vitest';
import type { RecorderEvent } from '../../src/events/types.js';
import { type Harness, startHarness } from './harness.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close().catch(() => undefined);
  h = null;
});

const pathOf = (e: RecorderEvent): string => (e.EventData as { RelativePath: string }).RelativePath;

describe('stop while starting', () => {
  it('opens no file after stop began and closes every file it opened', async () => {
    const ids = [45_401, 45_402, 45_403, 45_404, 45_405, 45_406];
    // 4 calls a minute (a sliding minute since issue 48): the guest identity, the WBI keys, the uid lookup and one start
    // use them up, so the other five starts are queued for budget when the stop comes.
    h = await startHarness({ rooms: ids.map((roomId) => ({ roomId, live: true })), global: { ApiBudgetPerMinute: 4 } });
    const harness = h;
    // The first start may wait a whole minute for its call (the batch check can take the fourth), and a loaded
    // machine adds to it: two minutes of budget, then the bound.
    await harness.waitEvent('FileOpening', () => true, 150_000);
    const stopAt = harness.events.length;
    await harness.service.close();
    const after = harness.events.slice(stopAt);
    expect(after.filter((e) => e.EventType === 'FileOpening').map(pathOf)).toEqual([]);
    const opened = harness.events.filter((e) => e.EventType === 'FileOpening').map(pathOf);
    const closed = harness.events.filter((e) => e.EventType === 'FileClosed').map(pathOf);
    expect(opened.length).toBeGreaterThanOrEqual(1);
    expect(closed.sort()).toEqual(opened.sort());
    // Every session that started also ended.
    const started = harness.events.filter((e) => e.EventType === 'SessionStarted').length;
    expect(harness.events.filter((e) => e.EventType === 'SessionEnded')).toHaveLength(started);
  }, 200_000);
});
