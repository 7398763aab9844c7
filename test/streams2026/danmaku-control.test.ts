// Danmaku commands that steer recording, sent from the captures with danmaku-raw: PLAYURL_RELOAD reconnects the stream at
// once within the session; CUT_OFF_V2 ends the session with the reason logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecorderEvent } from '../../src/events/types.js';
import { captureJson } from '../captures/read-capture.js';
import { collectLogs } from '../hls/helpers.js';
import { type Harness, startHarness } from '../rooms/harness.js';
import { until } from '../webhook/helpers.js';

const RELOAD = 34201;
const CUT = 34202;
const sessionOf = (e: RecorderEvent): string => (e.EventData as { SessionId: string }).SessionId;

describe('PLAYURL_RELOAD and CUT_OFF_V2', () => {
  let h: Harness;
  const logs = collectLogs();
  const send = async (room: number, file: string): Promise<void> => {
    const res = await fetch(`${h.sim.url}/_sim/rooms/${room}/danmaku-raw`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ command: captureJson('danmaku', file)[0] }),
    });
    expect(res.status).toBe(200);
  };
  beforeAll(async () => {
    h = await startHarness({ rooms: [RELOAD, CUT].map((roomId) => ({ roomId, live: true, bitrateKbps: 600, formats: ['flv' as const] })), global: { TimingWatchdogTimeout: 8000 } });
    await Promise.all([RELOAD, CUT].map((id) => h.waitEvent('FileOpening', (e) => e.EventData.RoomId === id, 60_000)));
    await until(() => [RELOAD, CUT].every((id) => h.service.recorder.findRoom(id)!.state.danmakuConnected), 30_000);
  }, 90_000);
  afterAll(async () => {
    logs.stop();
    await h?.close();
  });

  it('PLAYURL_RELOAD: a new stream connection at once, in the same session', async () => {
    const started = h.events.find((e) => e.EventType === 'SessionStarted' && e.EventData.RoomId === RELOAD)!;
    const before = h.sim.room(RELOAD).counters.streamConnections;
    const from = h.events.length;
    await send(RELOAD, 'bac_cmd_PLAYURL_RELOAD.json');
    await until(() => h.sim.room(RELOAD).counters.streamConnections > before, 10_000);
    const opened = await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === RELOAD, 20_000, from);
    expect(sessionOf(opened)).toBe(sessionOf(started));
    expect(h.events.slice(from).some((e) => e.EventType === 'SessionEnded' && e.EventData.RoomId === RELOAD)).toBe(false);
    expect(logs.match('PLAYURL_RELOAD', RELOAD).length).toBe(1);
  });

  it('CUT_OFF_V2: the session ends, the reason is logged', async () => {
    await send(CUT, 'bac_cmd_CUT_OFF_V2.json');
    await h.waitEvent('SessionEnded', (e) => e.EventData.RoomId === CUT, 20_000);
    const line = logs.match('stream cut off by the service', CUT)[0]!;
    expect(String(line['@mt'])).toContain('违规原因：您本场直播存在挂机、录播等消极直播行为');
    expect(line.code).toBe('STREAM_CUT_OFF');
  });
});
