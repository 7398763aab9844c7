// GET /api/events end to end: lifecycle and room frames, Last-Event-ID resume without loss, reset past the buffer, 100 clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBuffer } from '../../src/api/events/event-buffer.js';
import { CLIENT_QUEUE_BYTES, EventClient } from '../../src/api/events/event-client.js';
import { SseClient } from './sse-client.js';
import { eventually, simRooms, startWebSetup, type WebSetup } from './setup.js';

const ROOMS = [41001, 41002, 41003];

describe('the event buffer', () => {
  it('replays what it holds after an id and says when older events were evicted', () => {
    const b = new EventBuffer(4);
    for (let i = 1; i <= 10; i++) b.push((id) => `f${id}`, null);
    expect(b.after(6)?.map((f) => f.id)).toEqual([7, 8, 9, 10]);
    expect(b.after(10)).toEqual([]);
    expect(b.after(5)).toBeNull(); // 6 was evicted: replaying from 5 would lose it
    expect(b.after(11)).toBeNull(); // an id from another run
    expect(b.oldestId).toBe(7);
  });
});

describe('an event-stream client', () => {
  it('takes a whole replay even past its queue limit, then is dropped when live frames find it still behind', async () => {
    let closed = false;
    const client = new EventClient(null, () => (closed = true));
    const stream = client.open();
    const big = 'x'.repeat(64 * 1024);
    const frames = Math.ceil((2 * CLIENT_QUEUE_BYTES) / big.length);
    for (let i = 0; i < frames; i++) client.offer({ id: i + 1, frame: big, roomId: null }, true);
    expect(closed).toBe(false);
    client.offer({ id: 0, frame: 'live', roomId: null });
    expect(closed).toBe(true);
    // Everything queued before the drop is still delivered, so a resume starts after the last frame it got.
    const reader = stream.getReader();
    let n = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) n++;
    expect(n).toBe(frames);
  });
});

describe('GET /api/events', () => {
  let s: WebSetup;
  beforeAll(async () => {
    s = await startWebSetup({ rooms: simRooms(ROOMS, 800), record: ROOMS });
    await eventually('every room recording', () => s.service.recorder.rooms.every((r) => r.state.recording && r.recordingStats.totalOutputBytes > 0));
  });
  afterAll(async () => {
    await s?.close();
  });

  it('resumes from Last-Event-ID with exactly the frames a connected client got', async () => {
    const steady = await SseClient.connect(`${s.url}/api/events?lastEventId=0`);
    expect(steady.status).toBe(200);
    await steady.waitFor('replayed SessionStarted', (f) => f.event === 'lifecycle' && f.data.includes('"SessionStarted"'));
    const first = await SseClient.connect(`${s.url}/api/events`);
    await first.waitFor('hello', (f) => f.event === 'hello');
    const { newestId } = JSON.parse(first.of('hello')[0].data) as { newestId: number };
    first.close();

    // While no client of ours is connected: a room goes offline (StreamEnded, FileClosed, SessionEnded, room change).
    s.sim.setLive(ROOMS[0], false);
    await steady.waitFor('SessionEnded of the offline room', (f) => f.event === 'lifecycle' && f.data.includes('"SessionEnded"') && f.data.includes(`"RoomId":${ROOMS[0]}`));
    await steady.waitFor('room frame: not streaming', (f) => f.event === 'room' && (f.id ?? 0) > newestId && f.data.includes(`"roomId":${ROOMS[0]}`) && f.data.includes('"streaming":false'));

    const resumed = await SseClient.connect(`${s.url}/api/events`, { 'last-event-id': String(newestId) });
    const expected = steady.frames.filter((f) => f.id !== null && f.id > newestId);
    await eventually('resumed frames', () => resumed.frames.filter((f) => f.id !== null).length >= expected.length);
    const got = resumed.frames.filter((f) => f.id !== null).slice(0, expected.length);
    expect(got.map((f) => f.id)).toEqual(expected.map((f) => f.id));
    expect(got.map((f) => f.data)).toEqual(expected.map((f) => f.data));
    // No gap: ids run on from the one resumed after.
    expect(got.map((f) => f.id)).toEqual(expected.map((_, i) => newestId + 1 + i));
    expect(got.map((f) => f.event)).toEqual(expect.arrayContaining(['lifecycle', 'room']));
    for (const c of [steady, resumed]) c.close();
  });

  it('answers reset for an id it can no longer replay, and 400 for a bad room filter', async () => {
    const c = await SseClient.connect(`${s.url}/api/events?lastEventId=999999999`);
    const reset = await c.waitFor('reset', (f) => f.event === 'reset');
    expect(JSON.parse(reset.data)).toMatchObject({ reason: expect.any(String) });
    c.close();
    const bad = await fetch(`${s.url}/api/events?room=abc`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: -10 });
  });

  it('sends the full room DTO to a per-room subscriber and compact stats to everyone else', async () => {
    const room = await SseClient.connect(`${s.url}/api/events?room=${ROOMS[1]}`);
    const all = await SseClient.connect(`${s.url}/api/events`);
    const full = JSON.parse((await room.waitFor('room-stats', (f) => f.event === 'room-stats')).data) as Record<string, unknown>;
    expect(full).toMatchObject({ roomId: ROOMS[1], recording: true, health: 'ok' });
    expect(Object.keys(full.recordingStats as object)).toContain('durationRatio');
    const stats = JSON.parse((await all.waitFor('stats', (f) => f.event === 'stats')).data) as { rooms: { roomId: number }[] };
    expect(stats.rooms.map((r) => r.roomId).sort()).toEqual([...ROOMS].sort());
    expect(room.of('stats')).toEqual([]);
    room.close();
    all.close();
  });

  it('keeps recording at pace with 100 clients connected', async () => {
    const rooms = s.service.recorder.rooms.filter((r) => r.roomId !== ROOMS[0]);
    const before = rooms.map((r) => ({ ts: r.recordingStats.sessionMaxTimestamp, at: Date.now() }));
    const clients = await Promise.all(Array.from({ length: 100 }, () => SseClient.connect(`${s.url}/api/events`)));
    await eventually('stats on every client', () => clients.every((c) => c.of('stats').length >= 5), 60_000, 250);
    const metrics = await (await fetch(`${s.url}/metrics`)).text();
    expect(metrics).toMatch(/^liverec_event_stream_clients 10\d$/m);
    rooms.forEach((r, i) => {
      expect(r.state.recording).toBe(true);
      // Media recorded per wall second over the window: a stalled or starved room would sit far below 1.
      const pace = (r.recordingStats.sessionMaxTimestamp - before[i].ts) / (Date.now() - before[i].at);
      expect(pace).toBeGreaterThan(0.5);
    });
    clients.forEach((c) => c.close());
    // Closed connections are noticed and dropped (the stream is cancelled), so the hub does not keep writing to them.
    await eventually('clients dropped', async () => /^liverec_event_stream_clients 0$/m.test(await (await fetch(`${s.url}/metrics`)).text()), 30_000, 500);
  });
});
