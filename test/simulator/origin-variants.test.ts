// Simulated origin and _bluray variants: real naming in play info, qn 25000, outages with master_qn_strategy_chg, one live clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BilibiliApiClient } from '../../src/bilibili/api-client.js';
import { DanmakuClient } from '../../src/bilibili/danmaku/client.js';
import type { DanmakuEvent } from '../../src/bilibili/danmaku/commands.js';
import { ApiLimiter } from '../../src/bilibili/api-limiter.js';
import { offeredSources, probeOrigin, resolveClassifiedStream } from '../../src/bilibili/origin-offer.js';
import { openStream } from '../../src/bilibili/stream-download.js';
import { FlvParser } from '../../src/flv/parser.js';
import { TagType } from '../../src/flv/tag.js';
import { collect, control, startSim, waitFor } from './helpers.js';

let sim: Awaited<ReturnType<typeof startSim>>;
beforeAll(async () => {
  sim = await startSim([
    { roomId: 9101, live: true, formats: ['flv'], variants: { bluray: true, originReturnDelayMs: 600 } },
    { roomId: 9102, live: true, formats: ['flv'] },
  ]);
});
afterAll(() => sim.close());

const api = (): BilibiliApiClient => new BilibiliApiClient({ liveApiHost: sim.url }, ApiLimiter.create({ spacingMs: 0 }));

/** Timestamps of the video frames a response sends within `ms`. */
async function videoTimestamps(url: string, ms: number): Promise<number[]> {
  const { data } = await collect(await openStream(url), ms);
  return new FlvParser().push(data).tags.filter((t) => t.type === TagType.Video && t.data && t.data.length > 5 && t.data[1] === 1).map((t) => t.timestamp);
}

describe('origin variants in the simulator', () => {
  it('qn 25000 hands out the origin (no suffix, suffix=origin), qn 10000 the _bluray re-encode, each classified from its URL', async () => {
    const origin = await resolveClassifiedStream(api(), 9101, ['flv'], true);
    expect(origin.url.url).toMatch(/\/live_9101_1\.flv\?.*suffix=origin.*origin_bitrate=\d+/);
    expect(origin.provenance).toMatchObject({ kind: 'origin', qn: 25000, codec: 'avc' });
    expect((await offeredSources(api(), 9101, 'flv')).map((o) => `${o.url.codec}:${o.provenance.kind}`)).toEqual(['avc:origin']);
    expect(await offeredSources(api(), 9101, 'fmp4')).toEqual([]); // the room offers FLV only
    const bluray = await resolveClassifiedStream(api(), 9101, ['flv'], false);
    expect(bluray.url.url).toMatch(/\/live_9101_1_bluray\.flv\?.*suffix=bluray/);
    expect(bluray.provenance).toMatchObject({ kind: 'reencode', qn: 10000 });
    // A room without variants keeps its single unnamed stream: the origin, by its name, for a logged-in user; a guest
    // is served qn 250 there (docs/bilibili-2026.md, 2025-07 capture: current_qn 250 for mid=0), a transcode.
    const loggedIn = new BilibiliApiClient({ liveApiHost: sim.url, cookie: 'buvid3=ABC-123infoc; DedeUserID=4242; SESSDATA=secret' }, ApiLimiter.create({ spacingMs: 0 }));
    expect((await resolveClassifiedStream(loggedIn, 9102, ['flv'], true)).provenance.kind).toBe('origin');
    expect((await resolveClassifiedStream(api(), 9102, ['flv'], true)).provenance).toMatchObject({ kind: 'transcode', qn: 250 });
  });

  it('an outage ends the origin response, answers 404 for it and only _bluray at qn 25000; it returns with master_qn_strategy_chg', async () => {
    const options = { liveApiHost: sim.url, danmakuHeartbeatMs: 150, danmakuRetryMs: 300 };
    const danmaku = new DanmakuClient({ roomId: 9101, api: new BilibiliApiClient(options, ApiLimiter.create({ spacingMs: 0 })), options });
    const events: DanmakuEvent[] = [];
    danmaku.on('event', (e) => events.push(e));
    danmaku.on('warning', () => {});
    danmaku.start();
    await waitFor(() => danmaku.connected, 30_000, 'the danmaku client to connect');
    const announced = (): boolean => events.some((e) => e.type === 'PLAYURL_CHANGE');
    const origin = await resolveClassifiedStream(api(), 9101, ['flv'], true);
    const open = await openStream(origin.url.url);
    const reading = collect(open, 10_000);
    // An outage that lasts until it is ended by hand, so its checks cannot race the return however busy the machine.
    await control(sim.url, '/_sim/rooms/9101/origin-outage', { returnAfterMs: 600_000 });
    const cut = await reading;
    expect(cut.error).toBeNull(); // ended cleanly at a tag boundary, well before the 10 s
    await expect(openStream(origin.url.url)).rejects.toMatchObject({ code: expect.stringMatching(/STREAM/) });
    expect(await probeOrigin(api(), 9101, 'flv')).toBeNull();
    expect((await resolveClassifiedStream(api(), 9101, ['flv'], true)).provenance.kind).toBe('reencode');
    expect(announced()).toBe(false);
    await control(sim.url, '/_sim/rooms/9101/origin-return', {});
    expect((await probeOrigin(api(), 9101, 'flv'))?.provenance.kind).toBe('origin');
    await waitFor(announced, 30_000, 'master_qn_strategy_chg after the return');
    // The room's own return: after its originReturnDelayMs (600 ms) the origin is back, announced the same way.
    events.length = 0;
    await control(sim.url, '/_sim/rooms/9101/origin-outage', {});
    await waitFor(announced, 30_000, 'master_qn_strategy_chg after the timed return');
    expect((await probeOrigin(api(), 9101, 'flv'))?.provenance.kind).toBe('origin');
    danmaku.stop();
    const change = events.find((e) => e.type === 'PLAYURL_CHANGE');
    expect(change).toMatchObject({ type: 'PLAYURL_CHANGE', cmd: 'master_qn_strategy_chg' });
    expect(JSON.parse(change!.raw.data as string)).toMatchObject({ scatter: [0, 300] });
    const room = (await control(sim.url, '/_sim/rooms/9101')).json;
    expect(room.variants).toMatchObject({ originAvailable: true, outages: 2 });
  });

  it('every response of a variant room follows one live clock: origin and _bluray carry the same frames at the same timestamps', async () => {
    const a = (await resolveClassifiedStream(api(), 9101, ['flv'], true)).url.url;
    const b = (await resolveClassifiedStream(api(), 9101, ['flv'], false)).url.url;
    const [ta, tb] = await Promise.all([videoTimestamps(a, 2500), videoTimestamps(b, 2500)]);
    const shared = ta.filter((t) => tb.includes(t));
    expect(shared.length).toBeGreaterThan(20);
    expect(Math.abs(ta[0]! - tb[0]!)).toBeLessThan(1500);
  });
});
