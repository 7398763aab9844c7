// Webhooks from a real recording against the simulator: every brec field with the right type, each EventId once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../rooms/harness.js';
import { startReceiver, until, type Receiver } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+[+-]\d{2}:\d{2}$/;
const ROOM = 26001;

const SNAPSHOT = { RoomId: 'number', ShortId: 'number', Name: 'string', Title: 'string', AreaNameParent: 'string', AreaNameChild: 'string', Recording: 'boolean', Streaming: 'boolean', DanmakuConnected: 'boolean' };
const EXTRA: Record<string, Record<string, string>> = {
  StreamStarted: {},
  StreamEnded: {},
  SessionStarted: { SessionId: 'string' },
  SessionEnded: { SessionId: 'string' },
  // Source: liverec's documented extension (the file's stream provenance), after brec's fields.
  FileOpening: { SessionId: 'string', RelativePath: 'string', FileOpenTime: 'string', Source: 'object' },
  FileClosed: { SessionId: 'string', RelativePath: 'string', FileOpenTime: 'string', FileCloseTime: 'string', FileSize: 'number', Duration: 'number', Source: 'object' },
};

describe('webhooks from a real recording', () => {
  let h: Harness;
  let v2: Receiver;
  let v1: Receiver;
  let flaky: Receiver;
  beforeAll(async () => {
    v2 = await startReceiver(() => 200);
    v1 = await startReceiver(() => 200);
    const tried = new Set<string>();
    // The first attempt of every event fails here, so every event is retried with the same bytes.
    flaky = await startReceiver((_n, body) => {
      const id = (JSON.parse(body) as { EventId: string }).EventId;
      if (tried.has(id)) return 200;
      tried.add(id);
      return 500;
    });
    h = await startHarness({
      rooms: [{ roomId: ROOM, shortId: 3, name: 'hooks', title: 'webhook e2e', live: true, bitrateKbps: 1200 }],
      global: { WebHookUrlsV2: `${v2.url}\r\n${flaky.url}`, WebHookUrls: v1.url },
      // The API server swaps in its lightweight Request/Response globals: webhooks must still be delivered.
      api: true,
    });
  });
  afterAll(async () => {
    await h?.close();
    await Promise.all([v1?.close(), v2?.close(), flaky?.close()]);
  });

  it('delivers all six event types with brec fields and types; deduplicating by EventId sees each once', async () => {
    await h.waitEvent('FileOpening');
    await new Promise((r) => setTimeout(r, 3000));
    h.sim.setLive(ROOM, false);
    await h.waitEvent('SessionEnded');
    await h.waitEvent('StreamEnded');
    const emitted = h.events.length;
    await until(() => v2.requests.length >= emitted, 15_000);
    await until(() => flaky.requests.length >= 2 * emitted, 20_000);

    const bodies = v2.requests.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.EventType).sort()).toEqual(h.events.map((e) => e.EventType).sort());
    expect(new Set(bodies.map((b) => b.EventType))).toEqual(new Set(Object.keys(EXTRA)));
    for (const b of bodies) {
      expect(Object.keys(b)).toEqual(['EventType', 'EventTimestamp', 'EventId', 'EventData']);
      expect(b.EventId).toMatch(UUID);
      expect(b.EventTimestamp).toMatch(TIME);
      const expected = { ...SNAPSHOT, ...EXTRA[b.EventType] };
      expect(Object.keys(b.EventData).sort()).toEqual(Object.keys(expected).sort());
      for (const [k, type] of Object.entries(expected)) expect(typeof b.EventData[k], `${b.EventType}.${k}`).toBe(type);
      expect(b.EventData.RoomId).toBe(ROOM);
      expect(b.EventData.ShortId).toBe(3);
      if (b.EventType === 'FileClosed') {
        expect(b.EventData.FileSize).toBeGreaterThan(100_000);
        expect(b.EventData.Duration).toBeGreaterThan(2);
        expect(b.EventData.FileOpenTime).toMatch(TIME);
        expect(b.EventData.FileCloseTime).toMatch(TIME);
      }
    }
    // The flaky receiver saw retries of the same bytes; a consumer deduplicating by EventId sees each event once.
    const seen = new Map<string, string>();
    for (const r of flaky.requests) {
      const id = JSON.parse(r.body).EventId as string;
      if (seen.has(id)) expect(r.body).toBe(seen.get(id));
      else seen.set(id, r.body);
    }
    expect(flaky.requests.length).toBe(2 * seen.size);
    expect([...seen.keys()].sort()).toEqual(bodies.map((b) => b.EventId).sort());

    // Version 1: one record per closed file.
    await until(() => v1.requests.length >= 1, 10_000);
    const rec = JSON.parse(v1.requests[0]!.body);
    expect(Object.keys(rec)).toEqual(['EventRandomId', 'RoomId', 'Name', 'Title', 'RelativePath', 'FileSize', 'StartRecordTime', 'EndRecordTime']);
    expect(rec.RoomId).toBe(ROOM);
    expect(v1.requests).toHaveLength(bodies.filter((b) => b.EventType === 'FileClosed').length);
  });
});
