// Markers made on a file while it is recorded travel with its FileClosed (event stream and webhook v2: `Markers`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecorderEvent } from '../../src/events/types.js';
import { buildV2Payload } from '../../src/webhook/payload-v2.js';
import { eventually, simRooms, startWebSetup, type WebSetup } from '../web/setup.js';

const ROOM = 50_101;
type Ev<T extends RecorderEvent['EventType']> = RecorderEvent & { EventType: T };

describe('FileClosed carries the markers of the file', () => {
  let s: WebSetup;
  beforeAll(async () => {
    s = await startWebSetup({ rooms: simRooms([ROOM], 400), record: [ROOM] });
  }, 60_000);
  afterAll(async () => s?.close());

  it('marks the open recording, splits, and finds the markers in FileClosed and its v2 payload', async () => {
    const opening = await eventually('FileOpening', () => s.events.find((e): e is Ev<'FileOpening'> => e.EventType === 'FileOpening' && e.EventData.RoomId === ROOM), 60_000);
    const path = opening.EventData.RelativePath;
    await eventually('the file on disk', async () => (await fetch(`${s.url}/api/file/markers?path=${encodeURIComponent(path)}`)).status === 200, 30_000);
    for (const [atMs, label] of [[2500, 'later'], [1000, '开场']] as const) {
      const r = await fetch(`${s.url}/api/file/markers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path, atMs, label }) });
      expect(r.status).toBe(200);
    }
    expect((await fetch(`${s.url}/api/room/${ROOM}/split`, { method: 'POST' })).status).toBe(200);
    const closed = await eventually('FileClosed', () => s.events.find((e): e is Ev<'FileClosed'> => e.EventType === 'FileClosed' && e.EventData.RelativePath === path), 60_000);
    expect(closed.EventData.Markers).toEqual([{ AtMs: 1000, Label: '开场' }, { AtMs: 2500, Label: 'later' }]);
    expect(buildV2Payload(closed, 'id').EventData.Markers).toEqual([{ AtMs: 1000, Label: '开场' }, { AtMs: 2500, Label: 'later' }]);
    // A file nobody marked has no Markers field (brec's shape stays as it was).
    const next = await eventually('the next FileOpening', () => s.events.find((e): e is Ev<'FileOpening'> => e.EventType === 'FileOpening' && e.EventData.RelativePath !== path), 60_000);
    expect((await fetch(`${s.url}/api/room/${ROOM}/split`, { method: 'POST' })).status).toBe(200);
    const other = await eventually('its FileClosed', () => s.events.find((e): e is Ev<'FileClosed'> => e.EventType === 'FileClosed' && e.EventData.RelativePath === next.EventData.RelativePath), 60_000);
    expect(other.EventData.Markers).toBeUndefined();
    expect('Markers' in buildV2Payload(other, 'id').EventData).toBe(false);
  }, 120_000);
});
