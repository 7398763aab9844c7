// Regression (docs/testing.md, soak seed 6363 run 37): a header change that comes on the reconnected FLV while its
// frames are held for the splice plan (the HLS window does not show them yet). The new sequence header keeps its place
// among the held tags: the frames before it stay in the file they were encoded for, the ones after it begin the next
// file, and every frame of both decodes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import type { Harness } from '../rooms/harness.js';
import { collectLogs } from '../hls/helpers.js';
import { endStream, roomStory, startFlvRoom, until as untilOr } from './flv-room.js';
import { probeErrors } from './helpers.js';

const ROOM = 23881;
const logs = collectLogs();
const story = (): string => roomStory(logs, ROOM);
const until = (what: string, ok: () => boolean, timeoutMs: number): Promise<void> => untilOr(what, ok, timeoutMs, story);

describe('header change on the reconnected FLV while the splice plan waits for HLS', () => {
  let h: Harness;
  let closed: FileClosedData[];
  beforeAll(async () => {
    h = await startFlvRoom(ROOM);
    const connections = (): number => h.sim.room(ROOM).counters.streamConnections;
    const before = connections();
    // The playlist stops advancing (as a stalled CDN edge's does): the new connection's first keyframe is not listed,
    // so its frames are held for the plan's whole wait (10 s) before it gives up on aligning.
    h.sim.addFault(ROOM, { kind: 'playlist-stall', seconds: 60 });
    h.sim.addFault(ROOM, { kind: 'flv-outage', seconds: 3 });
    await until('the reconnect', () => connections() > before, 60_000);
    // On the open connection, at the next segment boundary past what it has sent: after its first keyframe.
    h.sim.addFault(ROOM, { kind: 'header-change', midStream: true, afterMs: 0 });
    await until('the splice plan', () => logs.match('reconnect: ', ROOM).length > 0, 60_000);
    closed = await endStream(h, ROOM);
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  it('continues the file across the reconnect and starts the next one at the new header', () => {
    // The reconnect began with the file's own headers: it continues the file (not a new file on that account).
    expect(logs.match('reconnect: ', ROOM).map((l) => l.how), story()).not.toContain('new-file');
    expect(closed, story()).toHaveLength(2);
  });

  it('decodes every frame of every file', async () => {
    for (const c of closed) expect(await probeErrors(`${h.workDir}/${c.RelativePath}`), `${c.RelativePath}\n${story()}`).toBe('');
  });
});
