// A stop that hangs (a bug, or something it waits on that never answers) still closes the room's file with its
// FileClosed before the service's close returns: the worker closes what is open a little before its grace ends.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { probe } from '../support/media-tools.js';
import { type Harness, roomOf, startHarness } from './harness.js';

const ROOM = 27401;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ rooms: [{ roomId: ROOM, name: 'overdue', live: true, bitrateKbps: 600 }], allowTestFaults: true });
}, 60_000);
afterAll(() => h?.close());

it('closes the open file with its FileClosed when the stop outlasts the grace', async () => {
  const opened = await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM);
  const rec = h.service.recorder;
  await rec.injectTestFault(rec.findRoom(ROOM)!, 'testHangStop');
  await h.service.close();
  const path = (opened.EventData as { RelativePath: string }).RelativePath;
  const closed = h.events.filter((e) => e.EventType === 'FileClosed' && (e.EventData as { RelativePath: string }).RelativePath === path);
  expect(closed).toHaveLength(1);
  expect(h.events.filter((e) => e.EventType === 'FileOpening' && roomOf(e) === ROOM)).toHaveLength(1);
  const p = await probe(join(h.workDir, path));
  expect(p.duration).toBeGreaterThan(0);
  expect(p.errors).toBe('');
}, 60_000);
