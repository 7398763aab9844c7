// Recording the true original against the simulator: origin labels everywhere, the switch back after a _bluray reconnect, and the opt-out.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AmfValue } from '../../src/flv/amf.js';
import { onMetaDataMap } from '../../src/flv/metadata.js';
import { FlvParser } from '../../src/flv/parser.js';
import { TagType } from '../../src/flv/tag.js';
import { clipPath } from '../../src/simulator/clips.js';
import { fileSource, sourceLine } from '../../src/rooms/source-check.js';
import type { RecorderEvent } from '../../src/events/types.js';
import { startReceiver, until, type Receiver } from '../webhook/helpers.js';
import { ffmpegBin } from '../support/media-tools.js';
import { type Harness, sleep, startHarness } from './harness.js';

const ORIGIN_ROOM = 37001;
const SWITCH_ROOM = 37002;
const OPT_OUT_ROOM = 37003;
const HLS_ROOM = 37004;
/** The simulator's origin return delay for the switch room: 30 s by default, shortened here (OriginVariantsInit.originReturnDelayMs). */
const RETURN_MS = 4000;

const files = (h: Harness, type: 'FileOpening' | 'FileClosed', room: number): RecorderEvent[] =>
  h.events.filter((e) => e.EventType === type && e.EventData.RoomId === room);
const sourceOf = (e: RecorderEvent): Record<string, unknown> | undefined => (e.EventData as { Source?: Record<string, unknown> }).Source;

/** The `liverec` block of a file's onMetaData. */
function liverecMeta(path: string): Map<string, AmfValue> {
  const { tags } = new FlvParser().push(readFileSync(path));
  const meta = onMetaDataMap(tags.find((t) => t.type === TagType.Script)?.script);
  const block = meta?.get('liverec');
  if (!block || block.type !== 'EcmaArray') throw new Error(`no liverec metadata in ${path}`);
  return block.value;
}

/** The decoded video frames of a file, as ffmpeg's framemd5 hashes in order. */
function frameHashes(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(ffmpegBin(), ['-v', 'error', '-i', path, '-map', '0:v', '-f', 'framemd5', '-'], { maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`ffmpeg failed on ${path}: ${stderr || err.message}`));
      resolve(stdout.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(',').at(-1)!.trim()));
    });
  });
}

describe('RecordingPreferOrigin against origin and _bluray variants', () => {
  let h: Harness;
  let hooks: Receiver;
  beforeAll(async () => {
    hooks = await startReceiver(() => 200);
    h = await startHarness({
      rooms: [
        { roomId: ORIGIN_ROOM, live: true, formats: ['flv'], variants: { bluray: true } },
        { roomId: SWITCH_ROOM, live: true, formats: ['flv'], variants: { bluray: true, originReturnDelayMs: RETURN_MS } },
        { roomId: OPT_OUT_ROOM, live: true, formats: ['flv'], variants: { bluray: true } },
        { roomId: HLS_ROOM, live: true, formats: ['fmp4'] },
      ],
      // The switch is tested on its own: with gap filling on, a dropped connection's file waits for the next one.
      global: { WebHookUrlsV2: hooks.url, TimingOriginCheckInterval: 3, RecordFillGapsFromHls: false },
      roomConfig: { [OPT_OUT_ROOM]: { RecordingPreferOrigin: false } },
      api: true,
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await hooks?.close();
  });

  it('records the origin of a room offering origin and _bluray: file, room resource, both webhooks and metadata say origin', async () => {
    const opening = await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === ORIGIN_ROOM, 30_000);
    expect(sourceOf(opening)).toMatchObject({ Kind: 'origin', Qn: 25000, Codec: 'avc' });
    expect(sourceOf(opening)!.Evidence).toEqual(expect.arrayContaining(['name without suffix', 'suffix=origin', 'qn 25000']));
    await until(() => h.service.recorder.findRoom(ORIGIN_ROOM)!.state.recordingSource !== null, 10_000);
    expect(h.service.recorder.findRoom(ORIGIN_ROOM)!.state.recordingSource).toMatchObject({ kind: 'origin', qn: 25000, codec: 'avc' });
    const dto = (await (await fetch(`${h.service.api!.url}/api/room/${ORIGIN_ROOM}`)).json()) as { recordingSource: unknown };
    expect(dto.recordingSource).toMatchObject({ kind: 'origin', qn: 25000, evidence: expect.arrayContaining(['suffix=origin']) });
    const metrics = await (await fetch(`${h.service.api!.url}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`liverec_room_recording_source\\{room_id="${ORIGIN_ROOM}",name="[^"]*",kind="origin",qn="25000",codec="avc"\\} 1`));
    await sleep(2500);
    await h.service.recorder.findRoom(ORIGIN_ROOM)!.stop();
    const closed = await h.waitEvent('FileClosed', (e) => e.EventData.RoomId === ORIGIN_ROOM, 30_000);
    expect(sourceOf(closed)).toMatchObject({ Kind: 'origin' });
    const meta = liverecMeta(join(h.workDir, (closed.EventData as { RelativePath: string }).RelativePath));
    expect(meta.get('SourceKind')).toEqual({ type: 'String', value: 'origin' });
    expect((meta.get('SourceEvidence') as { value: string }).value).toMatch(/suffix=origin/);
    // The hook `liverec check` calls reads the same back from the file.
    const checked = fileSource(join(h.workDir, (closed.EventData as { RelativePath: string }).RelativePath));
    expect(checked).toMatchObject({ kind: 'origin', qn: 25000, codec: 'avc' });
    expect(checked!.evidence).toEqual(expect.arrayContaining(['suffix=origin']));
    expect(sourceLine(checked)).toMatch(/^origin \(qn 25000, avc\): /);
    // Both v2 webhooks carry the Source object (a liverec extension after brec's fields).
    await until(() => hooks.requests.filter((r) => JSON.parse(r.body).EventData.RoomId === ORIGIN_ROOM && /^File/.test(JSON.parse(r.body).EventType)).length >= 2, 20_000);
    const bodies = hooks.requests.map((r) => JSON.parse(r.body)).filter((b) => b.EventData.RoomId === ORIGIN_ROOM && /^File/.test(b.EventType));
    for (const b of bodies) expect(b.EventData.Source).toMatchObject({ Kind: 'origin', Qn: 25000 });
    expect(h.sim.room(ORIGIN_ROOM).streamLog.every((r) => !r.path.includes('_bluray'))).toBe(true);
  }, 90_000);

  it('after a reconnect hands out _bluray, records the re-encode, then switches to the returning origin in the same session with every frame once', async () => {
    await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === SWITCH_ROOM, 30_000);
    await sleep(2000);
    const from = h.events.length;
    h.sim.originOutage(SWITCH_ROOM);
    const reencode = await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === SWITCH_ROOM && sourceOf(e)?.Kind === 'reencode', 30_000, from);
    expect(sourceOf(reencode)!.Evidence).toEqual(expect.arrayContaining(['name suffix _bluray', 'suffix=bluray']));
    // The first try of the returning origin fails (404): the re-encode goes on recording, and a later look switches.
    h.sim.addFault(SWITCH_ROOM, { kind: 'stream-404', count: 1 });
    const origin = await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === SWITCH_ROOM && sourceOf(e)?.Kind === 'origin', 40_000, from);
    expect((origin.EventData as { SessionId: string }).SessionId).toBe((reencode.EventData as { SessionId: string }).SessionId);
    await sleep(4000);
    const sent = h.sim.room(SWITCH_ROOM).counters;
    expect(sent.maxOpenStreams).toBeGreaterThanOrEqual(2); // the origin was opened before the re-encode closed
    const originRequests = h.sim.room(SWITCH_ROOM).streamLog.filter((r) => /\/live_\d+_\d+\.flv$/.test(r.path));
    expect(originRequests.length).toBeGreaterThanOrEqual(3); // the first recording, the failed try, the switch
    await h.service.recorder.findRoom(SWITCH_ROOM)!.stop();
    await h.waitEvent('SessionEnded', (e) => e.EventData.RoomId === SWITCH_ROOM, 30_000, from);
    const closed = files(h, 'FileClosed', SWITCH_ROOM).filter((e) => h.events.indexOf(e) >= from);
    const rel = (e: RecorderEvent): string => (e.EventData as { RelativePath: string }).RelativePath;
    const path = (e: RecorderEvent): string => join(h.workDir, (e.EventData as { RelativePath: string }).RelativePath);
    const reFile = closed.find((e) => rel(e) === rel(reencode))!;
    const orFile = closed.find((e) => rel(e) === rel(origin))!;
    expect(sourceOf(reFile)).toMatchObject({ Kind: 'reencode' });
    expect(sourceOf(orFile)).toMatchObject({ Kind: 'origin' });
    expect(fileSource(path(reFile))?.kind).toBe('reencode');
    expect(fileSource(path(orFile))?.kind).toBe('origin');
    const [a, b, clip] = await Promise.all([frameHashes(path(reFile)), frameHashes(path(orFile)), frameHashes(clipPath('clip-360p.flv'))]);
    expect(a.length).toBeGreaterThan(10);
    expect(b.length).toBeGreaterThan(10);
    // The two files together are one unbroken run of the looping clip: no frame lost, none twice.
    const run = [...a, ...b];
    const starts = clip.map((_, i) => i).filter((i) => clip[i] === run[0]);
    const fits = starts.some((s) => run.every((hash, k) => hash === clip[(s + k) % clip.length]));
    expect(fits).toBe(true);
  }, 120_000);

  it('with RecordingPreferOrigin false, records _bluray and never switches', async () => {
    const opening = await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === OPT_OUT_ROOM, 30_000);
    expect(sourceOf(opening)).toMatchObject({ Kind: 'reencode', Qn: 10000 });
    h.sim.originReturn(OPT_OUT_ROOM); // a master_qn_strategy_chg, and the origin is offered all along
    await sleep(8000);
    expect(files(h, 'FileOpening', OPT_OUT_ROOM)).toHaveLength(1);
    // No look for the origin: play info only for the stream's connections (one, or more if a loaded machine let the
    // watchdog reconnect).
    expect(h.sim.room(OPT_OUT_ROOM).counters.apiHits.getRoomPlayInfo).toBeLessThanOrEqual(h.sim.room(OPT_OUT_ROOM).streamLog.length);
    expect(h.sim.room(OPT_OUT_ROOM).streamLog.every((r) => r.path.includes('_bluray'))).toBe(true);
  }, 60_000);

  it('labels an HLS fMP4 recording too: its Source and the MP4 file\'s source box', async () => {
    const opening = await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === HLS_ROOM, 30_000);
    expect(sourceOf(opening)).toMatchObject({ Kind: 'origin', Evidence: expect.arrayContaining(['name without suffix']) });
    await sleep(3000);
    await h.service.recorder.findRoom(HLS_ROOM)!.stop();
    const closed = await h.waitEvent('FileClosed', (e) => e.EventData.RoomId === HLS_ROOM, 30_000);
    const file = join(h.workDir, (closed.EventData as { RelativePath: string }).RelativePath);
    expect(file.endsWith('.mp4')).toBe(true);
    expect(fileSource(file)).toMatchObject({ kind: 'origin', evidence: expect.arrayContaining(['name without suffix']) });
    expect((await frameHashes(file)).length).toBeGreaterThan(10); // the extra box leaves the file playable
  }, 60_000);
});
