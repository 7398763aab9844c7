// TitleFilterPatterns: a matching title is not auto-recorded; a manual start still records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { titleFiltered } from '../../src/rooms/title-filter.js';
import { type Harness, sleep, startHarness } from './harness.js';

describe('titleFiltered', () => {
  it('matches any line, ignores blank lines and reports invalid patterns', () => {
    const bad: string[] = [];
    const onInvalid = (p: string) => void bad.push(p);
    expect(titleFiltered('回放\n\n^rerun', 'rerun of yesterday', onInvalid)).toBe(true);
    expect(titleFiltered('回放\n^rerun', '【回放】 stream', onInvalid)).toBe(true);
    expect(titleFiltered('回放\n^rerun', 'live now', onInvalid)).toBe(false);
    expect(titleFiltered('([', 'anything', onInvalid)).toBe(false);
    expect(bad).toEqual(['([']);
    expect(titleFiltered(null, 'x', onInvalid)).toBe(false);
  });
});

describe('a live room whose title is filtered', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      rooms: [{ roomId: 28001, name: 'rerun', title: '【回放】 yesterday', live: true, bitrateKbps: 600 }],
      global: { TitleFilterPatterns: '回放' },
    });
  });
  afterAll(() => h?.close());

  it('is not recorded automatically, but /start records it', async () => {
    await h.waitEvent('StreamStarted');
    await sleep(2000);
    expect(h.events.some((e) => e.EventType === 'SessionStarted')).toBe(false);
    const room = h.service.recorder.findRoom(28001)!;
    expect(room.state.recording).toBe(false);
    await room.start();
    await h.waitEvent('FileOpening');
  });
});
