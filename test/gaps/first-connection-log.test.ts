// The first connection of a session is logged as a start, never as a reconnect (issue 51): with and without HLS to reach back into.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectLogs } from '../hls/helpers.js';
import { type Harness, roomOf, startHarness } from '../rooms/harness.js';

const FLV_ONLY = 23831; // a late start with no HLS offered: nothing to reach back into
const WITH_HLS = 23832; // a late start that reaches back into the HLS window

describe('the first connection of a session', () => {
  let h: Harness;
  let logs: ReturnType<typeof collectLogs>;
  beforeAll(async () => {
    logs = collectLogs();
    h = await startHarness({
      rooms: [
        { roomId: FLV_ONLY, live: true, formats: ['flv'], liveStream: { streamAgeSec: 20 } },
        { roomId: WITH_HLS, live: true, formats: ['flv', 'fmp4'], liveStream: { streamAgeSec: 20, hlsRetentionSec: 60 } },
      ],
    });
    for (const id of [FLV_ONLY, WITH_HLS]) await h.waitEvent('FileOpening', (e) => roomOf(e) === id, 60_000);
    // The start line is written when the plan is applied, which is what lets the first frames into the file.
    for (const id of [FLV_ONLY, WITH_HLS]) {
      const end = Date.now() + 60_000;
      while (logs.match('start: ', id).length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    }
  }, 120_000);
  afterAll(async () => {
    logs?.stop();
    await h?.close();
  });

  it('is logged as a start, and no reconnect is logged', () => {
    const story = (id: number): string => logs.lines.filter((l) => l.RoomId === id).map((l) => l['@mt']).join('\n');
    expect(logs.match('start: first connection of the session', FLV_ONLY), story(FLV_ONLY)).toHaveLength(1);
    const [late] = logs.match('start: ', WITH_HLS);
    expect(late?.['@mt'], story(WITH_HLS)).toMatch(/^start: \d+ frame\(s\) from before the first keyframe filled from HLS$/);
    expect(late!.filled).toBeGreaterThan(0);
    for (const id of [FLV_ONLY, WITH_HLS]) {
      expect(logs.match('reconnect:', id), story(id)).toEqual([]);
      expect(logs.match('unaligned', id), story(id)).toEqual([]);
    }
  });
});
