// Stream URL choice and the FLV download against the simulator: ffprobe-valid media, every stream fault.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BilibiliApiClient } from '../../src/bilibili/api-client.js';
import { ApiLimiter } from '../../src/bilibili/api-limiter.js';
import type { ClientOptions } from '../../src/bilibili/client-options.js';
import { openStream } from '../../src/bilibili/stream-download.js';
import { pickHost, resolveStreamUrl } from '../../src/bilibili/stream-url.js';
import { FlvParser } from '../../src/flv/parser.js';
import { TagFlag, TagType } from '../../src/flv/tag.js';
import { collect, control, ffprobePath, startSim, waitFor } from '../simulator/helpers.js';

let sim: Awaited<ReturnType<typeof startSim>>;
const tmp = mkdtempSync(join(tmpdir(), 'liverec-stream-'));

beforeAll(async () => {
  sim = await startSim([
    // The clip timeline (responses start at the clip's first tag): the slow-trickle bound below assumes it; a
    // one-clock room starts with the live GOP, a whole keyframe before the first complete tag.
    { roomId: 8001, live: true, bitrateKbps: 1500, liveStream: false },
    { roomId: 8002, live: true, hevc: true, acceptQn: [10000, 250] },
    { roomId: 8003, live: false },
  ]);
});
afterAll(async () => {
  await sim.close();
  rmSync(tmp, { recursive: true, force: true });
});

function api(o: Partial<ClientOptions> = {}): BilibiliApiClient {
  return new BilibiliApiClient({ liveApiHost: sim.url, ...o }, ApiLimiter.create({ spacingMs: 0 }));
}

async function streamUrl(roomId = 8001): Promise<string> {
  return (await resolveStreamUrl(api(), roomId)).url;
}

/** Waits until the server has seen every earlier download of the room close, so a fault hits the next one. */
async function arm(roomId: number, fault: object): Promise<void> {
  await waitFor(() => sim.sim.room(roomId).media.size === 0, 3000, 'earlier streams to close');
  await control(sim.url, `/_sim/rooms/${roomId}/faults`, fault);
}

const open = (url: string, o: Parameters<typeof openStream>[1] = {}) => openStream(url, { watchdogTimeoutMs: 3000, ...o });

function parse(data: Buffer) {
  const p = new FlvParser();
  const r = p.push(data);
  p.end();
  return { tags: r.tags, error: r.error, anomalies: p.anomalies };
}

describe('stream URL', () => {
  it('takes http_stream/flv/avc at qn 10000 from a non-mcdn host', async () => {
    // A logged-in user is served qn 10000; a guest gets current_qn 250 (docs/bilibili-2026.md, 2025-07 capture, mid=0).
    expect(await resolveStreamUrl(api(), 8001)).toMatchObject({ qn: 10000, currentQn: 250, codec: 'avc' });
    for (let i = 0; i < 5; i++) {
      const s = await resolveStreamUrl(api({ cookie: 'buvid3=ABC-123infoc; DedeUserID=4242; SESSDATA=secret' }), 8001);
      expect(s).toMatchObject({ qn: 10000, currentQn: 10000, codec: 'avc' });
      expect(s.host).not.toMatch(/\.mcdn\./);
      expect(s.url).toMatch(/^http:\/\/(127\.0\.0\.1|localhost):\d+\/live-bvc\/\d+\/live_8001_\d+\.flv\?expires=/);
    }
  });

  it('honours the RecordingQuality priority list, asking again only when the first answer does not serve the chosen qn', async () => {
    const before = sim.sim.room(8002).counters.apiHits.getRoomPlayInfo;
    const s = await resolveStreamUrl(api({ recordingQuality: '400，250 10000' }), 8002);
    expect(s).toMatchObject({ qn: 250, currentQn: 250 });
    expect(s.url).toContain('qn=250');
    // The simulator caps a guest at 250 (current_qn 250 at qn 10000): the first answer already serves the chosen 250,
    // so no second call is made (issue 48: needsSecondCall).
    expect(sim.sim.room(8002).counters.apiHits.getRoomPlayInfo - before).toBe(1);
    await expect(resolveStreamUrl(api({ recordingQuality: '30000, 20000' }), 8002)).rejects.toMatchObject({ code: 'NO_MATCHING_QN' });
  });

  it('takes hevc for an hevc token when offered, else the next token', async () => {
    expect((await resolveStreamUrl(api({ recordingQuality: 'hevc10000,avc10000' }), 8002)).codec).toBe('hevc');
    expect((await resolveStreamUrl(api({ recordingQuality: 'hevc10000,avc10000' }), 8001)).codec).toBe('avc');
  });

  it('an offline room is PLAYURL_NULL', async () => {
    await expect(resolveStreamUrl(api(), 8003)).rejects.toMatchObject({ code: 'PLAYURL_NULL' });
  });

  it('uses .mcdn. hosts only when nothing else is offered, and picks at random', () => {
    const m = { host: 'https://x.mcdn.bilivideo.cn:486', extra: '', streamTtl: 0 };
    const a = { host: 'https://a.bilivideo.com', extra: '', streamTtl: 0 };
    const b = { host: 'https://b.bilivideo.com', extra: '', streamTtl: 0 };
    expect(pickHost([m])).toBe(m);
    expect(pickHost([m, a, b], () => 0)).toBe(a);
    expect(pickHost([m, a, b], () => 0.99)).toBe(b);
    expect(() => pickHost([])).toThrow(expect.objectContaining({ code: 'NO_STREAM' }));
  });
});

describe('download', () => {
  it('five seconds of the simulated stream are H.264 + AAC to ffprobe', async () => {
    const d = await open(await streamUrl());
    expect(d.contentType).toBe('video/x-flv');
    const { data, error } = await collect(d, 5000);
    expect(error).toBeNull();
    // Cut the file at the last whole tag so ffprobe sees no truncated packet.
    const { tags, error: parseError } = parse(data);
    expect(parseError).toBeNull();
    const last = tags.at(-1)!;
    const end = last.data!.byteOffset - data.byteOffset + last.data!.length + 4;
    const file = join(tmp, 'five.flv');
    writeFileSync(file, data.subarray(0, end));
    const out = execFileSync(ffprobePath(), ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'json', file]).toString();
    const streams = (JSON.parse(out) as { streams: { codec_name: string; width?: number }[] }).streams;
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    const video = tags.filter((t) => t.type === TagType.Video && !(t.flag & TagFlag.Header));
    expect(video.at(-1)!.timestamp - video[0]!.timestamp).toBeGreaterThan(4500);
    // Looping keeps timestamps increasing.
    for (let i = 1; i < video.length; i++) expect(video[i]!.timestamp).toBeGreaterThan(video[i - 1]!.timestamp);
    expect(d.bytesReceived).toBe(data.length);
    expect(sim.sim.room(8001).counters.bytesServed).toBeGreaterThanOrEqual(data.length);
  });

  it('an AbortSignal ends the download quietly, and cancels a pending connect', async () => {
    const ac = new AbortController();
    const d = await open(await streamUrl(), { signal: ac.signal });
    setTimeout(() => ac.abort(), 200);
    const { data, error } = await collect(d, 5000);
    expect(error).toBeNull();
    expect(d.isStopped).toBe(true);
    expect(data.length).toBeGreaterThan(0);
    await arm(8001, { kind: 'stream-delay', delayMs: 10_000 });
    const early = new AbortController();
    const opening = open(await streamUrl(), { signal: early.signal });
    // Abort once the simulator holds the request in its delay (it took the fault): the connect is pending for sure,
    // and no fault is left over for the next test, however late the request arrives.
    await waitFor(() => sim.sim.room(8001).requestFaults.length === 0, 30_000, 'the delayed request to arrive');
    early.abort();
    await expect(opening).rejects.toMatchObject({ code: 'STREAM_NETWORK', message: /cancelled/ });
  });

  it('stream-404 and stream-403 are STREAM_HTTP_STATUS with the status', async () => {
    const url = await streamUrl();
    await control(sim.url, '/_sim/rooms/8001/faults', { kind: 'stream-404' });
    await expect(open(url)).rejects.toMatchObject({ code: 'STREAM_HTTP_STATUS', httpStatus: 404 });
    await control(sim.url, '/_sim/rooms/8001/faults', { kind: 'stream-403' });
    await expect(open(url)).rejects.toMatchObject({ code: 'STREAM_HTTP_STATUS', httpStatus: 403 });
    (await open(url)).stop();
  });

  it.each([301, 302, 307, 308])('follows %i redirects by hand to another host', async (status) => {
    const url = await streamUrl();
    await control(sim.url, '/_sim/rooms/8001/faults', { kind: 'redirect', count: 2, status });
    const d = await open(url);
    expect(d.redirects).toHaveLength(2);
    expect(d.url).toContain('sim_hop=2');
    expect(new URL(d.host).hostname).toBe(new URL(url).hostname);
    const { data } = await collect(d, 300);
    expect(data.subarray(0, 3).toString()).toBe('FLV');
  });

  it('too many redirects are STREAM_REDIRECT', async () => {
    await control(sim.url, '/_sim/rooms/8001/faults', { kind: 'redirect', count: 3 });
    await expect(open(await streamUrl(), { maxRedirects: 2 })).rejects.toMatchObject({ code: 'STREAM_REDIRECT' });
    await control(sim.url, '/_sim/rooms/8001/faults', undefined, 'DELETE');
  });

  it('headers slower than TimingStreamConnect are STREAM_CONNECT_TIMEOUT', async () => {
    await control(sim.url, '/_sim/rooms/8001/faults', { kind: 'stream-delay', delayMs: 1500 });
    await expect(open(await streamUrl(), { streamConnectTimeoutMs: 300 })).rejects.toMatchObject({ code: 'STREAM_CONNECT_TIMEOUT' });
    await expect(openStream('http://127.0.0.1:1/x.flv')).rejects.toMatchObject({ code: 'STREAM_NETWORK' });
  });

  it('a cut mid-tag is STREAM_ABORTED and leaves a truncated tag', async () => {
    await arm(8001, { kind: 'stream-cut', afterMs: 300 });
    const { data, error } = await collect(await open(await streamUrl()), 5000);
    expect(error).toMatchObject({ code: 'STREAM_ABORTED' });
    const r = parse(data);
    expect(r.error).toBeNull();
    expect(r.anomalies.truncatedBytes).toBeGreaterThan(0);
  });

  it('a stall ends the download with STREAM_STALLED after the watchdog time', async () => {
    await arm(8001, { kind: 'stall', afterMs: 200 });
    const t0 = Date.now();
    const { data, error } = await collect(await open(await streamUrl(), { watchdogTimeoutMs: 700 }), 10_000);
    expect(error).toMatchObject({ code: 'STREAM_STALLED' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(700);
    expect(data.length).toBeGreaterThan(0);
  });

  it('slow trickles below the bitrate without tripping the watchdog', async () => {
    const url = await streamUrl();
    await arm(8001, { kind: 'slow', kbps: 150, afterMs: 0 });
    const slow = await collect(await open(url, { watchdogTimeoutMs: 1200 }), 1500);
    expect(slow.error).toBeNull();
    const normal = await collect(await open(url), 1500);
    expect(slow.data.length).toBeGreaterThan(1000);
    expect(slow.data.length).toBeLessThan(normal.data.length / 3);
  });

  it('timestamp-jump makes later tags jump forward', async () => {
    await arm(8001, { kind: 'timestamp-jump', afterMs: 200, jumpMs: 30_000 });
    const { data } = await collect(await open(await streamUrl()), 1000);
    const video = parse(data).tags.filter((t) => t.type === TagType.Video);
    const gaps = video.slice(1).map((t, i) => t.timestamp - video[i]!.timestamp);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(30_000);
  });

  it('duplicate-chunk repeats whole tags', async () => {
    await arm(8001, { kind: 'duplicate-chunk', afterMs: 300 });
    const { data } = await collect(await open(await streamUrl()), 1000);
    const r = parse(data);
    expect(r.error).toBeNull();
    const video = r.tags.filter((t) => t.type === TagType.Video && !(t.flag & TagFlag.Header));
    const repeats = video.slice(1).filter((t, i) => t.timestamp <= video[i]!.timestamp);
    expect(repeats.length).toBeGreaterThan(0);
  });
});

describe('room changes while streaming', () => {
  const meta = (tags: ReturnType<typeof parse>['tags']) =>
    tags.filter((t) => t.type === TagType.Script).map((t) => ((t.script![1] as { value: Map<string, { value: number }> }).value).get('width')!.value);
  const avcHeaders = (tags: ReturnType<typeof parse>['tags']) =>
    tags.filter((t) => t.type === TagType.Video && t.flag & TagFlag.Header).map((t) => Buffer.from(t.data!).toString('hex'));

  it('header-change gives the next connection a new resolution and SPS; midStream injects it', async () => {
    const url = await streamUrl();
    const first = parse((await collect(await open(url), 300)).data).tags;
    await control(sim.url, '/_sim/rooms/8001/faults', { kind: 'header-change' });
    const second = parse((await collect(await open(url), 300)).data).tags;
    expect(meta(first)).toHaveLength(1);
    expect(meta(second)).toHaveLength(1);
    expect(meta(first)[0]).not.toBe(meta(second)[0]);
    expect(avcHeaders(first)[0]).not.toBe(avcHeaders(second)[0]);

    const d = await open(url);
    await control(sim.url, '/_sim/rooms/8001/faults', { kind: 'header-change', midStream: true, afterMs: 200 });
    const mid = parse((await collect(d, 1500)).data).tags;
    expect(new Set(meta(mid))).toEqual(new Set([640, 854]));
    expect(new Set(avcHeaders(mid)).size).toBe(2);
  });

  it('going offline ends open responses cleanly and play info turns null', async () => {
    const d = await open(await streamUrl());
    setTimeout(() => void control(sim.url, '/_sim/rooms/8001/live', { live: false }), 300);
    const { data, error } = await collect(d, 5000);
    expect(error).toBeNull();
    expect(parse(data).anomalies.truncatedBytes).toBe(0);
    await expect(resolveStreamUrl(api(), 8001)).rejects.toMatchObject({ code: 'PLAYURL_NULL' });
    await control(sim.url, '/_sim/rooms/8001/live', { live: true });
    (await open(await streamUrl())).stop();
  });
});

describe('needsSecondCall', () => {
  it('asks again only when another call can change what is served', async () => {
    const { needsSecondCall } = await import('../../src/bilibili/stream-url.js');
    expect(needsSecondCall(10000, 10000, 10000)).toBe(false); // served what was chosen
    expect(needsSecondCall(250, 10000, 25000)).toBe(false); // a guest capped at 250: asking for less gives no more
    expect(needsSecondCall(10000, 400, 25000)).toBe(true); // the user wants less than served
    expect(needsSecondCall(10000, 25000, 10000)).toBe(true); // 25000 asked for by name
  });
});
