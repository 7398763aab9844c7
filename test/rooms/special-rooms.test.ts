// Paid, password, guard-only, DRM-only and unknown rooms: unavailableReason within one interval, one API call per interval, no retries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCredentialStore } from '../../src/bilibili/shared-credentials.js';
import { SseClient } from '../web/sse-client.js';
import { waitFor } from '../simulator/helpers.js';
import { type Harness, sleep, startHarness } from './harness.js';

/** The smallest TimingCheckInterval liverec accepts (src/config/timing-floors.ts). */
const INTERVAL_S = 5;
const SPECIAL = { 34101: 'paid', 34102: 'password', 34103: 'guardOnly', 34104: 'drmOnly' } as const;
const UNKNOWN = 34199;

describe('rooms the service will not let us record', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      rooms: Object.entries(SPECIAL).map(([id, special]) => ({ roomId: Number(id), live: true, special })),
      record: [...Object.keys(SPECIAL).map(Number), UNKNOWN],
      global: { TimingCheckInterval: INTERVAL_S },
      api: true,
    });
  });
  afterAll(() => h?.close());

  const reasonOf = (id: number): string | null | undefined => h.service.recorder.findRoom(id)?.state.unavailableReason;

  it('shows each reason within one check interval, makes at most one API call per interval, and never starts a session', async () => {
    const expected: Record<number, string> = { ...SPECIAL, [UNKNOWN]: 'notFound' };
    // One interval after the first check (generous under load: the first check runs at start-up).
    await waitFor(() => Object.entries(expected).every(([id, r]) => reasonOf(Number(id)) === r), (INTERVAL_S + 10) * 1000, 'every unavailableReason');
    const hits = (): number[] => [...Object.keys(SPECIAL).map((id) => h.sim.room(Number(id)).counters.apiHits.total), h.sim.unknownRoomHits];
    const before = hits();
    await sleep(3 * INTERVAL_S * 1000);
    const calls = hits().map((n, i) => n - before[i]!);
    for (const n of calls) {
      expect(n).toBeGreaterThanOrEqual(2); // checked again at the normal interval …
      expect(n).toBeLessThanOrEqual(4); // … with one call per interval (3 intervals, one of slack)
    }
    expect(h.events.filter((e) => e.EventType === 'SessionStarted')).toEqual([]);
    for (const id of Object.keys(SPECIAL)) expect(h.sim.room(Number(id)).counters.streamRequests).toBe(0);
    expect(Object.entries(expected).every(([id, r]) => reasonOf(Number(id)) === r)).toBe(true);
  });

  it('is in the room resource, /api/events and /metrics', async () => {
    const base = h.service.api!.url;
    const rooms = (await (await fetch(`${base}/api/room`)).json()) as { roomId: number; unavailableReason: string | null }[];
    expect(Object.fromEntries(rooms.map((r) => [r.roomId, r.unavailableReason]))).toMatchObject({ ...SPECIAL, [UNKNOWN]: 'notFound' });
    const sse = await SseClient.connect(`${base}/api/events?lastEventId=0`);
    try {
      await sse.waitFor('room frame with paid', (f) => f.event === 'room' && f.data.includes('"roomId":34101') && f.data.includes('"unavailableReason":"paid"'));
    } finally {
      sse.close();
    }
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/liverec_room_unavailable\{room_id="34101",name="[^"]*",reason="paid"\} 1/);
    expect(metrics).toMatch(/liverec_room_unavailable\{room_id="34199",name="",reason="notFound"\} 1/);
  });

  it('records once the room becomes recordable, and clears the reason', async () => {
    h.sim.room(34101).special = null;
    await h.waitEvent('SessionStarted', (e) => e.EventData.RoomId === 34101, (INTERVAL_S + 15) * 1000);
    expect(reasonOf(34101)).toBeNull();
  });
});

describe('risk control that lasts', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rooms: [{ roomId: 34901, live: false }], global: { TimingCheckInterval: INTERVAL_S, TimingApiBlockedPause: 1000 } });
  });
  afterAll(() => h?.close());

  it('is riskControl once -352 answers outlast one API pause, and clears when the service answers again', async () => {
    const room = () => h.service.recorder.findRoom(34901)!;
    await waitFor(() => room().state.name !== '', 20_000, 'first room info');
    h.sim.addFault(34901, { kind: 'api352', count: 1_000_000, durationMs: 4 * INTERVAL_S * 1000 });
    await waitFor(() => room().state.unavailableReason === 'riskControl', 4 * INTERVAL_S * 1000, 'riskControl');
    await waitFor(() => room().state.unavailableReason === null, 5 * INTERVAL_S * 1000, 'cleared');
  });
});

describe('one guest identity and one set of WBI keys per process', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rooms: [34951, 34952, 34953, 34954].map((roomId) => ({ roomId, live: true })), roomsPerWorker: 1 });
  });
  afterAll(() => h?.close());

  it('rooms in four threads share what finger/spi and nav answered once, and send the same buvid3', async () => {
    await waitFor(() => h.service.recorder.rooms.every((r) => r.state.recording), 30_000, 'every room recording');
    // One answer each for the whole process. A try that failed (a nav that timed out on a starved machine) is the
    // only reason for another call, and liverec counts each; once per process means exactly one fetch succeeded and
    // the simulator saw no call beyond the counted tries.
    for (const [key, hits] of [[`guest ${h.sim.url}`, h.sim.fingerHits], [`wbi ${h.sim.url}`, h.sim.navHits]] as const) {
      const { fetches = 0, failures = 0 } = getCredentialStore().get(key);
      expect({ key, succeeded: fetches - failures }).toEqual({ key, succeeded: 1 });
      expect(hits).toBeGreaterThanOrEqual(1);
      expect(hits).toBeLessThanOrEqual(fetches);
    }
    const cookies = new Set([34951, 34952, 34953, 34954].flatMap((id) => h.sim.room(id).apiLog.map((r) => r.headers.cookie)));
    expect(cookies.size).toBe(1);
    expect([...cookies][0]).toMatch(/^buvid3=\S+infoc; buvid4=/);
  });
});
