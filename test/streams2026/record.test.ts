// The 2026 service end to end: FLV, HLS fMP4 and HLS TS in AVC, HEVC and AV1 (AV1 over TS as AOM's carriage spec has it; no capture shows
// it), a room whose only HLS is the play-gateway master playlist, and V2 protobuf gifts from the captures sent with danmaku-raw landing in the XML.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { playInfoData } from '../../src/simulator/api-responses.js';
import type { SimRoomInit } from '../../src/simulator/room.js';
import { captureJson } from '../captures/read-capture.js';
import { collectLogs, decode } from '../hls/helpers.js';
import { type Harness, sleep, startHarness } from '../rooms/harness.js';
import { decodeAv1Ts } from '../support/av1-ts-demux.js';
import { ffprobeBin } from '../support/media-tools.js';
import { until } from '../webhook/helpers.js';

interface Case { room: SimRoomInit; protocol: string; quality?: string; ext: string; codec: string }

const CASES: Record<string, Case> = {
  'flv avc': { room: { roomId: 34101, formats: ['flv'] }, protocol: 'flv', ext: '.flv', codec: 'h264' },
  'flv hevc': { room: { roomId: 34102, formats: ['flv'], hevcOnly: true, opaqueNames: true }, protocol: 'flv', ext: '.flv', codec: 'hevc' },
  'flv av1': { room: { roomId: 34103, formats: ['flv'], av1Only: true }, protocol: 'flv', quality: 'av110000', ext: '.flv', codec: 'av1' },
  'fmp4 avc': { room: { roomId: 34104, formats: ['fmp4'] }, protocol: 'hls-fmp4', ext: '.mp4', codec: 'h264' },
  'fmp4 hevc': { room: { roomId: 34105, formats: ['fmp4'], hevcOnly: true }, protocol: 'hls-fmp4', ext: '.mp4', codec: 'hevc' },
  'fmp4 av1': { room: { roomId: 34106, formats: ['fmp4'], av1: true, opaqueNames: true }, protocol: 'hls-fmp4', quality: 'av110000,avc10000', ext: '.mp4', codec: 'av1' },
  'ts avc': { room: { roomId: 34107, formats: ['ts'] }, protocol: 'hls-ts', ext: '.ts', codec: 'h264' },
  'ts hevc': { room: { roomId: 34109, formats: ['ts'], hevcOnly: true }, protocol: 'hls-ts', ext: '.ts', codec: 'hevc' },
  'ts av1': { room: { roomId: 34110, formats: ['ts'], av1Only: true }, protocol: 'hls-ts', quality: 'av110000', ext: '.ts', codec: 'av1' },
  // getRoomPlayInfo lists FLV only (an empty list would be a guard-only room); HLS fMP4 is in the master playlist alone.
  'master only': { room: { roomId: 34108, formats: ['flv', 'fmp4'], hlsOnlyInMaster: true }, protocol: 'hls-fmp4', ext: '.mp4', codec: 'h264' },
};

/**
 * Codec names and video frames by an independent parser (ffprobe; the pipeline's own reader plays no part). AV1 over
 * TS, which the bundled 2018 ffmpeg shows as a data stream tagged AV01: the test-side demuxer (test/support/av1-ts-demux.ts)
 * takes the access units out into IVF for ffmpeg's libaom decoder, and ffprobe must still read the file without an error.
 */
async function probe(path: string, codec: string): Promise<{ codecs: string[]; frames: number; errors: string }> {
  if (path.endsWith('.ts') && codec === 'av1') {
    const d = await decodeAv1Ts(path);
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      execFile(ffprobeBin(), ['-v', 'error', '-show_entries', 'stream=codec_name,codec_tag_string', '-of', 'json', path], (_e, stdout, stderr) => resolve({ stdout, stderr }));
    });
    const streams = (JSON.parse(stdout || '{}') as { streams?: { codec_name: string; codec_tag_string: string }[] }).streams ?? [];
    const codecs = streams.map((s) => (s.codec_tag_string === 'AV01' && d.signalling?.registration === 'AV01' && d.malformed === 0 ? 'av1' : s.codec_name)).sort();
    return { codecs, frames: d.frames, errors: [stderr.trim(), d.errors].filter(Boolean).join('\n') };
  }
  if (path.endsWith('.mp4') || path.endsWith('.ts')) {
    const d = await decode(path);
    return { codecs: d.codecs, frames: d.videoFrames, errors: d.errors };
  }
  const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
    execFile(ffprobeBin(), ['-v', 'error', '-count_frames', '-show_entries', 'stream=codec_name,codec_type,nb_read_frames', '-of', 'json', path],
      { maxBuffer: 16 << 20 }, (_e, stdout, stderr) => resolve({ stdout, stderr }));
  });
  const streams = (JSON.parse(stdout || '{}') as { streams?: { codec_name: string; codec_type: string; nb_read_frames: string }[] }).streams ?? [];
  return { codecs: streams.map((s) => s.codec_name).sort(), frames: Number(streams.find((s) => s.codec_type === 'video')?.nb_read_frames ?? 0), errors: stderr.trim() };
}

/** The RFC 6381 codec strings mp4box (an independent MP4 parser) builds from a file's sample entries (av01 needs a valid av1C). */
function mp4boxCodecs(path: string): string[] {
  const MP4Box = createRequire(import.meta.url)('mp4box') as { createFile(): { onReady?: (i: { tracks: { codec: string; type?: string }[] }) => void; appendBuffer(b: ArrayBuffer): void; flush(): void } };
  const file = MP4Box.createFile();
  let codecs: string[] = [];
  file.onReady = (i) => { codecs = i.tracks.map((t) => t.codec).sort((a) => (a.startsWith('mp4a') ? 1 : -1)); };
  const bytes = readFileSync(path);
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer & { fileStart?: number };
  ab.fileStart = 0;
  file.appendBuffer(ab);
  file.flush();
  return codecs;
}

describe('2026 streams end to end', () => {
  let h: Harness;
  const ids = Object.values(CASES).map((c) => c.room.roomId);
  const logs = collectLogs();
  beforeAll(async () => {
    h = await startHarness({
      rooms: Object.values(CASES).map((c) => ({ ...c.room, live: true, bitrateKbps: 600 })),
      global: { TimingWatchdogTimeout: 8000, RecordDanmaku: true, RecordDanmakuGift: true },
      roomConfig: Object.fromEntries(Object.values(CASES).map((c) => [c.room.roomId, { RecordingProtocol: c.protocol, ...(c.quality ? { RecordingQuality: c.quality } : {}) }])),
    });
    try {
      await Promise.all(ids.map((id) => h.waitEvent('FileOpening', (e) => e.EventData.RoomId === id, 60_000)));
    } catch (err) {
      const missing = ids.filter((id) => !h.events.some((e) => e.EventType === 'FileOpening' && e.EventData.RoomId === id));
      throw new Error(`${(err as Error).message}; rooms without a file: ${missing.join(', ')}: ${JSON.stringify(logs.lines.filter((l) => missing.includes(l.RoomId as number)).map((l) => `${l.RoomId} ${l['@mt']} ${l.code ?? ''} ${l.error ?? ''}`).slice(-20))}`);
    }
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  });

  it('V2 protobuf gifts from the captures, sent with danmaku-raw, land in the XML (V1 twin deduped)', async () => {
    const room = CASES['flv avc']!.room.roomId;
    await until(() => h.service.recorder.findRoom(room)!.state.danmakuConnected, 20_000);
    const v2 = ['starbot_cmd_SEND_GIFT_V2_paid_2026.json', 'starbot_cmd_SEND_GIFT_V2_free_2026.json'].map((f) => captureJson('danmaku', f)[0]);
    const v1Twin = { cmd: 'SEND_GIFT', data: { giftName: '粉丝团灯牌', num: 1, uid: 3546837514455634, uname: 'Ceriselune', tid: '4812888751724338176', giftId: 31164, timestamp: 1788426528, coin_type: 'gold', price: 100 } };
    for (const command of [...v2, v1Twin]) {
      const res = await fetch(`${h.sim.url}/_sim/rooms/${room}/danmaku-raw`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ command }) });
      expect(res.status).toBe(200);
    }
    await sleep(1500);
  });

  it('every room records its protocol and codec; files decode with ffprobe', async () => {
    // Opaque stream names (live_b…av…_2500 style) are recorded like any other: liverec never reads a stream name.
    for (const name of ['flv hevc', 'fmp4 av1']) {
      const data = playInfoData(h.sim.room(CASES[name]!.room.roomId), h.sim.address(), new URLSearchParams('codec=0,1,2')) as { playurl_info: { playurl: { stream: { format: { codec: { base_url: string }[] }[] }[] } } };
      const urls = data.playurl_info.playurl.stream.flatMap((st) => st.format.flatMap((f) => f.codec.map((c) => c.base_url)));
      expect(urls.length, name).toBeGreaterThan(0);
      expect(urls.every((u) => /\/live_b[0-9a-z]+av[0-9a-z]+_(2500|minihevc|av1)[/.]/.test(u)), name).toBe(true);
    }
    await sleep(4000);
    // The TS path reads the AV1 PID as video (registration 'AV01'): frames counted, nothing reported as unreadable.
    const av1Ts = CASES['ts av1']!.room.roomId;
    expect(h.service.recorder.findRoom(av1Ts)!.recordingStats.totalOutputVideoFrames).toBeGreaterThan(25);
    expect(logs.lines.filter((l) => l.RoomId === av1Ts && l.code === 'TS_UNKNOWN_STREAM')).toEqual([]);
    for (const id of ids) h.sim.setLive(id, false);
    for (const id of ids) await h.waitEvent('SessionEnded', (e) => e.EventData.RoomId === id, 30_000);
    for (const [name, c] of Object.entries(CASES)) {
      const files = h.events.filter((e) => e.EventType === 'FileClosed' && e.EventData.RoomId === c.room.roomId)
        .map((e) => `${h.workDir}/${(e.EventData as FileClosedData).RelativePath}`);
      expect(files.length, name).toBeGreaterThan(0);
      expect(files.every((f) => f.endsWith(c.ext)), name).toBe(true);
      const p = await probe(files[0]!, c.codec);
      expect(p.codecs, name).toEqual(['aac', c.codec].sort());
      expect(p.frames, name).toBeGreaterThan(25);
      expect(p.errors, name).toBe('');
      if (c.codec === 'av1' && c.ext === '.mp4') expect(mp4boxCodecs(files[0]!)[0], name).toBe('av01.0.01M.08'); // the av1C is whole
    }
    // The master-only room never had HLS in getRoomPlayInfo: its playlists came through the play-gateway master playlist.
    const master = h.sim.room(CASES['master only']!.room.roomId);
    expect(master.counters.apiHits.masterPlaylist).toBeGreaterThan(0);
    expect(master.counters.hlsSegmentsServed).toBeGreaterThan(3);

    const flvRoom = CASES['flv avc']!.room.roomId;
    const xml = h.events.filter((e) => e.EventType === 'FileClosed' && e.EventData.RoomId === flvRoom)
      .map((e) => readFileSync(`${h.workDir}/${(e.EventData as FileClosedData).RelativePath}`.replace(/\.flv$/, '.xml'), 'utf8')).join('');
    const gifts = [...xml.matchAll(/<gift [^>]*\/>/g)].map((m) => m[0]);
    expect(gifts.length).toBe(2);
    expect(gifts[0]).toMatch(/user="Ceriselune" uid="3546837514455634" giftname="粉丝团灯牌" giftcount="1"/);
    expect(gifts[1]).toMatch(/user="饼゜" uid="9232442" giftname="粉丝团灯牌" giftcount="1"/);
  });
});
