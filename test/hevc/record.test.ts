// HEVC recording end to end: simulator HEVC rooms, the real service, quality tokens, header change and codec switch.
import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData, RecorderEvent } from '../../src/events/types.js';
import { type Harness, sleep, startHarness } from '../rooms/harness.js';
import { type Receiver, startReceiver, until } from '../webhook/helpers.js';
import { decode, firstVideoByte, keyframeTimes, metadataOf } from './media.js';

const HEVC_ROOM = 27001; // avc + hevc offered; RecordingQuality hevc10000,avc10000
const SWITCH_ROOM = 27002; // avc + hevc offered; brec 2.15's default records avc, then the stream switches to HEVC
const ONLY_ROOM = 27003; // hevc only; the default's avc10000 is not offered, so hevc10000 is taken

const closedOf = (h: Harness, room: number): FileClosedData[] =>
  h.events.filter((e) => e.EventType === 'FileClosed' && e.EventData.RoomId === room).map((e) => e.EventData as FileClosedData);
const sessionOf = (e: RecorderEvent): string => (e.EventData as { SessionId: string }).SessionId;
const codecOf = (h: Harness, room: number): string => h.service.recorder.findRoom(room)!.state.recordingCodec;

describe('HEVC recording', () => {
  let h: Harness;
  let hooks: Receiver;
  beforeAll(async () => {
    hooks = await startReceiver(() => 200);
    h = await startHarness({
      rooms: [
        { roomId: HEVC_ROOM, live: true, hevc: true, bitrateKbps: 600 },
        { roomId: SWITCH_ROOM, live: true, hevc: true, bitrateKbps: 600 },
        { roomId: ONLY_ROOM, live: true, hevcOnly: true, bitrateKbps: 600 },
      ],
      // A longer watchdog than FAST: on a loaded 2-core machine a 2-s gap at start would add a reconnect.
      global: { WebHookUrlsV2: hooks.url, TimingWatchdogTimeout: 6000 },
      roomConfig: { [HEVC_ROOM]: { RecordingQuality: 'hevc10000,avc10000' } },
    });
    await Promise.all([HEVC_ROOM, SWITCH_ROOM, ONLY_ROOM].map((id) => h.waitEvent('FileOpening', (e) => e.EventData.RoomId === id, 30_000)));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await hooks?.close();
  });

  it('records the codec the tokens choose, in their order, and says so in the room resource', async () => {
    await until(() => codecOf(h, HEVC_ROOM) !== '' && codecOf(h, SWITCH_ROOM) !== '' && codecOf(h, ONLY_ROOM) !== '', 10_000);
    expect(codecOf(h, HEVC_ROOM)).toBe('hevc');
    expect(codecOf(h, SWITCH_ROOM)).toBe('avc');
    expect(codecOf(h, ONLY_ROOM)).toBe('hevc');
    const paths = (id: number) => h.sim.room(id).streamLog.map((r) => r.path);
    expect(paths(HEVC_ROOM).every((p) => p.includes('_prohevc'))).toBe(true);
    expect(paths(SWITCH_ROOM).some((p) => p.includes('_prohevc'))).toBe(false);
    expect(paths(ONLY_ROOM).every((p) => p.includes('_prohevc'))).toBe(true);
  });

  it('HEVC header change and AVC → HEVC switch mid-stream: new files in the same session', async () => {
    await sleep(3000);
    const from = h.events.length;
    const connections = (id: number) => h.sim.room(id).counters.streamConnections;
    const before = [connections(HEVC_ROOM), connections(SWITCH_ROOM)];
    h.sim.addFault(HEVC_ROOM, { kind: 'header-change', midStream: true });
    h.sim.addFault(SWITCH_ROOM, { kind: 'codec-switch', midStream: true });
    for (const id of [HEVC_ROOM, SWITCH_ROOM]) {
      const closed = await h.waitEvent('FileClosed', (e) => e.EventData.RoomId === id, 20_000, from);
      const next = await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === id, 20_000, h.events.indexOf(closed));
      expect(sessionOf(next)).toBe(sessionOf(closed));
    }
    // The pipeline split the files; the connection stayed.
    expect([connections(HEVC_ROOM), connections(SWITCH_ROOM)]).toEqual(before);
    await until(() => codecOf(h, SWITCH_ROOM) === 'hevc', 10_000);
    await sleep(3000);
    for (const id of [HEVC_ROOM, SWITCH_ROOM, ONLY_ROOM]) h.sim.setLive(id, false);
    for (const id of [HEVC_ROOM, SWITCH_ROOM, ONLY_ROOM]) await h.waitEvent('SessionEnded', (e) => e.EventData.RoomId === id, 20_000);

    const filesAfter = (id: number) => h.events.slice(from).filter((e) => e.EventType === 'FileClosed' && e.EventData.RoomId === id)
      .map((e) => `${h.workDir}/${(e.EventData as FileClosedData).RelativePath}`);
    const hevcFiles = filesAfter(HEVC_ROOM);
    expect(hevcFiles.length).toBeGreaterThanOrEqual(2);
    const [da, db] = await Promise.all([decode(hevcFiles[0]!), decode(hevcFiles.at(-1)!)]);
    for (const d of [da, db]) {
      expect(d.errors).toBe('');
      expect(d.codecs).toEqual(['aac', 'hevc']);
      expect(d.videoFrames).toBeGreaterThan(25);
    }
    expect(new Set([da.resolution, db.resolution])).toEqual(new Set(['640x360', '854x480']));
    expect(firstVideoByte(hevcFiles[0]!) & 0x80).toBe(0x80); // Enhanced FLV by default

    const switchFiles = filesAfter(SWITCH_ROOM);
    expect(switchFiles.length).toBeGreaterThanOrEqual(2);
    const [ds, dt] = await Promise.all([decode(switchFiles[0]!), decode(switchFiles.at(-1)!)]);
    expect([ds.errors, dt.errors]).toEqual(['', '']);
    expect(ds.codecs).toEqual(['aac', 'h264']);
    expect(dt.codecs).toEqual(['aac', 'hevc']);
    expect(metadataOf(switchFiles[0]!).get('videocodecid')).toEqual({ type: 'Number', value: 7 });
    expect(metadataOf(switchFiles.at(-1)!).get('videocodecid')).toEqual({ type: 'Number', value: 0x68766331 });
  }, 90_000);

  it('an HEVC-only room: duration within 2 % of the media served, keyframe index, decodes cleanly', async () => {
    const [file] = closedOf(h, ONLY_ROOM);
    expect(closedOf(h, ONLY_ROOM)).toHaveLength(1);
    expect(h.sim.room(ONLY_ROOM).counters.streamConnections).toBe(1);
    const path = `${h.workDir}/${file!.RelativePath}`;
    const d = await decode(path);
    expect(d.errors).toBe('');
    expect(d.codecs).toEqual(['aac', 'hevc']);
    const served = h.sim.room(ONLY_ROOM).counters.mediaMsServed / 1000;
    expect(served).toBeGreaterThan(5);
    expect(Math.abs(file!.Duration - served) / served).toBeLessThan(0.02);
    expect(Math.abs(d.duration - served) / served).toBeLessThan(0.02);
    expect(keyframeTimes(path).length).toBeGreaterThan(1);
    const meta = metadataOf(path);
    expect(meta.get('width')).toEqual({ type: 'Number', value: 640 });
    expect(meta.get('height')).toEqual({ type: 'Number', value: 360 });
  });

  it('the hevc10000,avc10000 room: its files hold the media served (within 2 %), each with a keyframe index', async () => {
    const files = closedOf(h, HEVC_ROOM);
    const total = files.reduce((n, f) => n + f.Duration, 0);
    const served = h.sim.room(HEVC_ROOM).counters.mediaMsServed / 1000;
    expect(served).toBeGreaterThan(5);
    expect(Math.abs(total - served) / served).toBeLessThan(0.02);
    for (const f of files) expect(keyframeTimes(`${h.workDir}/${f.RelativePath}`).length).toBeGreaterThan(0);
  });

  it('webhook FileClosed events match the files on disk and the recorder events', async () => {
    const closed = h.events.filter((e) => e.EventType === 'FileClosed');
    await until(() => hooks.requests.filter((r) => JSON.parse(r.body).EventType === 'FileClosed').length >= closed.length, 20_000);
    const delivered = hooks.requests.map((r) => JSON.parse(r.body)).filter((b) => b.EventType === 'FileClosed');
    const key = (d: FileClosedData) => `${d.SessionId} ${d.RelativePath} ${d.FileSize} ${d.Duration}`;
    expect(delivered.map((b) => key(b.EventData)).sort()).toEqual(closed.map((e) => key(e.EventData as FileClosedData)).sort());
    for (const e of closed) {
      const d = e.EventData as FileClosedData;
      expect(statSync(`${h.workDir}/${d.RelativePath}`).size).toBe(d.FileSize);
    }
  });
});
