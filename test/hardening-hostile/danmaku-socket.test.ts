// Issue 36, danmaku rows: zlib bombs per message, a message that never ends, oversized pings with a server that never
// reads, and ROOM_CHANGE floods with 15 MB / 4 MB / 100 KB titles. Every room also records video on the same worker.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FIELD_CHARS } from '../../src/bilibili/danmaku/commands.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { probe } from '../support/media-tools.js';
import { type DanmakuAttack, type HostileDanmaku, startHostileDanmaku } from './hostile-danmaku.js';

const HEALTHY = 36101;
const ATTACKS: [number, DanmakuAttack, number?][] = [
  [36102, 'zlib-flood'], [36103, 'endless-message'], [36104, 'ping-flood'],
  [36105, 'room-change', 15_000_000], [36106, 'room-change', 4_000_000], [36107, 'room-change', 100_000],
];
/** A room whose API title is 100 KB (the API answer may be up to 4 MiB). */
const API_TITLE = 36108;
const ROOMS = [HEALTHY, ...ATTACKS.map(([id]) => id), API_TITLE];
const SECONDS = 30;
/** Peak RSS growth of the whole test process (8 rooms on one worker, 6 hostile danmaku servers in it too): measured ~150 MiB. */
const RSS_GROWTH_BOUND_MIB = 400;

const flvOf = (dir: string, roomId: number): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.flv') && f.includes(`${roomId}-`)).map((f) => join(dir, f));

describe('a hostile danmaku server', () => {
  let h: Harness;
  const servers = new Map<number, HostileDanmaku>();
  let peakGrowth = 0;
  const wall = new Map<number, number>();
  /** Longest title each room's state showed while the floods ran: the API's periodic answers (the simulator's short
   *  title) legitimately replace a ROOM_CHANGE title, so one reading at the end can land on either. */
  const titles = new Map<number, number>();
  const sampleTitles = (): void => {
    for (const r of h.service.recorder.rooms) titles.set(r.roomId, Math.max(titles.get(r.roomId) ?? 0, r.state.title.length));
  };

  beforeAll(async () => {
    for (const [id, mode, titleBytes] of ATTACKS) servers.set(id, await startHostileDanmaku(mode, { titleBytes }));
    const base = process.memoryUsage().rss;
    h = await startHarness({
      rooms: ROOMS.map((roomId) => {
        const s = servers.get(roomId);
        return {
          roomId, live: true, formats: ['flv' as const], bitrateKbps: 800, danmakuServer: s ? { host: s.host, wsPort: s.wsPort } : undefined,
          title: roomId === API_TITLE ? 'A'.repeat(100_000) : undefined,
        };
      }),
      roomsPerWorker: 16,
    });
    const opened = new Map<number, number>();
    for (const id of ROOMS) opened.set(id, Date.parse((await h.waitEvent('FileOpening', (e) => roomOf(e) === id, 30_000)).EventTimestamp));
    const until = Date.now() + SECONDS * 1000;
    while (Date.now() < until) {
      peakGrowth = Math.max(peakGrowth, (process.memoryUsage().rss - base) / 1024 / 1024);
      sampleTitles();
      await sleep(250);
    }
    sampleTitles();
    for (const id of ROOMS) h.sim.setLive(id, false);
    for (const id of ROOMS) {
      await h.waitEvent('SessionEnded', (e) => roomOf(e) === id, 30_000);
      wall.set(id, (Date.now() - opened.get(id)!) / 1000);
    }
    await h.close();
  }, (SECONDS + 150) * 1000);
  afterAll(async () => {
    for (const s of servers.values()) await s.close();
  });

  it(`keeps the process's RSS growth under ${RSS_GROWTH_BOUND_MIB} MiB`, () => {
    console.log(`hostile danmaku: peak RSS growth ${peakGrowth.toFixed(0)} MiB; connections ${JSON.stringify([...servers].map(([id, s]) => [id, s.connections]))}`);
    expect(peakGrowth).toBeLessThan(RSS_GROWTH_BOUND_MIB);
  });

  it('every room on the thread keeps recording video at pace, in clean files', async () => {
    // Not API_TITLE: its 1,024-character title goes into onMetaData (FlvWriteMetadata, as brec does), and ffprobe's
    // FLV reader reports any metadata string over 255 bytes as an AMF error.
    for (const id of ROOMS.filter((r) => r !== API_TITLE)) {
      let recorded = 0;
      for (const f of flvOf(h.workDir, id)) {
        const p = await probe(f);
        expect(p.errors, f).toBe('');
        recorded += p.duration;
      }
      expect(recorded / wall.get(id)!, `room ${id}: ${recorded.toFixed(1)} s in ${wall.get(id)!.toFixed(1)} s`).toBeGreaterThan(0.8);
    }
  });

  it('the endless message, the oversized pings and the 15 MB titles cut the connection, and the client reconnects', () => {
    for (const id of [36103, 36104, 36105]) expect(servers.get(id)!.connections, `room ${id}`).toBeGreaterThanOrEqual(2);
  });

  it('titles are cut at parse time; oversized commands never reach the main thread', () => {
    expect(titles.get(36107)).toBe(MAX_FIELD_CHARS);
    expect(titles.get(36106)).toBeLessThanOrEqual(MAX_FIELD_CHARS);
    expect(titles.get(36105)).toBeLessThanOrEqual(MAX_FIELD_CHARS);
    expect(titles.get(API_TITLE)).toBe(MAX_FIELD_CHARS);
  });
});
