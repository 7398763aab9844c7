// Issue 36, main-thread rows: GraphQL alias × list fan-out, and SSE replay of large buffered events to clients that never read.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_BUFFER_BYTES, EventBuffer } from '../../src/api/events/event-buffer.js';
import { brecSchema } from '../../src/api/graphql/schema.js';
import { MAX_QUERY_COST, queryCost } from '../../src/api/graphql/cost-limit.js';
import { formatLocal } from '../../src/time.js';
import { getOperationAST, parse } from 'graphql';
import { simRooms, startWebSetup, type WebSetup } from '../web/setup.js';
import { sleep } from '../rooms/harness.js';

const ROOMS = Array.from({ length: 20 }, (_, i) => 36201 + i);
const aliases = (n: number): string => `{ ${Array.from({ length: n }, (_, i) => `a${i}: rooms { objectId }`).join(' ')} }`;
/** RSS growth allowed for 2000 events of 50 KB titles replayed to 5 clients that never read (before: 835 MiB). */
const SSE_RSS_BOUND_MIB = 150;

describe('GraphQL cost', () => {
  it('counts aliases times list sizes, and stops counting past the limit', () => {
    const schema = brecSchema();
    const doc = parse(aliases(3300), { maxTokens: 50_000 });
    expect(queryCost(schema, doc, getOperationAST(doc)!, 300)).toBeGreaterThan(MAX_QUERY_COST);
    const ui = parse('{ rooms { objectId roomId: shortId name title recording roomConfig { roomId autoRecord } } }');
    expect(queryCost(schema, ui, getOperationAST(ui)!, 1000)).toBeLessThan(MAX_QUERY_COST / 2); // a small UI list fits at 1,000 rooms
  });
});

describe('the event buffer', () => {
  it('is bounded by bytes as well as by count', () => {
    const b = new EventBuffer(2000);
    const title = 'x'.repeat(50_000);
    for (let i = 0; i < 2000; i++) b.push((id) => `id: ${id}\ndata: ${title}\n\n`, null);
    expect(b.bytes).toBeLessThanOrEqual(EVENT_BUFFER_BYTES);
    expect(b.newestId - b.oldestId + 1).toBeLessThan(200);
    expect(b.after(b.newestId - 10)).toHaveLength(10);
  });
});

describe('hostile API clients against a running service', () => {
  let s: WebSetup;
  beforeAll(async () => {
    s = await startWebSetup({ rooms: simRooms(ROOMS).map((r) => ({ ...r, live: false })), record: ROOMS });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('refuses 3300 aliases of rooms{objectId} over 20 rooms with a 400, at once', async () => {
    const t0 = performance.now();
    const res = await fetch(`${s.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: aliases(3300) }) });
    const body = await res.json() as { code: string; message: string };
    expect(res.status).toBe(400);
    expect(body.message).toMatch(/more than \d+ fields/);
    expect(performance.now() - t0).toBeLessThan(5000);
    // A normal query still works.
    const ok = await fetch(`${s.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ rooms { objectId title } }' }) });
    expect(((await ok.json()) as { data: { rooms: unknown[] } }).data.rooms).toHaveLength(ROOMS.length);
  });

  it('replays at most a client\'s bound: 2000 events of 50 KB titles to 5 clients that never read', async () => {
    const title = '标'.repeat(50_000);
    for (let i = 0; i < 2000; i++) {
      s.service.recorder.bus.emit({ EventType: 'StreamStarted', EventTimestamp: formatLocal(), EventData: {
        RoomId: ROOMS[i % ROOMS.length]!, ShortId: 0, Name: 'n', Title: title, AreaNameParent: 'p', AreaNameChild: 'c', Recording: false, Streaming: true, DanmakuConnected: false,
      } });
    }
    global.gc?.();
    const base = process.memoryUsage().rss;
    const port = new URL(s.url).port;
    const sockets: Socket[] = [];
    for (let i = 0; i < 5; i++) {
      const sock = connect(Number(port), '127.0.0.1');
      sock.on('error', () => undefined);
      sock.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nLast-Event-ID: 1\r\nAccept: text/event-stream\r\n\r\n`);
      sock.pause();
      sockets.push(sock);
    }
    let peak = 0;
    for (let i = 0; i < 20; i++) {
      peak = Math.max(peak, (process.memoryUsage().rss - base) / 1024 / 1024);
      await sleep(100);
    }
    // A client that reads gets a reset, not 100 MB.
    const reader = connect(Number(port), '127.0.0.1');
    reader.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nLast-Event-ID: 1\r\nAccept: text/event-stream\r\n\r\n`);
    let got = '';
    await new Promise<void>((resolve) => {
      reader.on('data', (d) => {
        got += d.toString();
        if (got.includes('event: reset')) resolve();
      });
      setTimeout(resolve, 5000);
    });
    reader.destroy();
    for (const sock of sockets) sock.destroy();
    console.log(`SSE replay: peak RSS growth ${peak.toFixed(0)} MiB`);
    expect(got).toContain('event: reset');
    expect(peak).toBeLessThan(SSE_RSS_BOUND_MIB);
  });
});
