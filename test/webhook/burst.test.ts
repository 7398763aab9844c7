// A burst of 10,000 events: every one delivered exactly once while the in-memory window stays bounded.
import { expect, it } from 'vitest';
import pino from 'pino';
import { EventBus } from '../../src/events/bus.js';
import { WebhookOutbox } from '../../src/webhook/outbox.js';
import { createServer } from 'node:http';
import { fileClosedEvent, tempWorkDir, until } from './helpers.js';

/** A lean receiver (bodies only): 10,000 requests in one process make the receiver's own cost matter. */
async function bodyCollector(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/burst`;
  return { url, bodies, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

it('10,000 events are all delivered exactly once with at most one window of deliveries in memory', async () => {
  const r = await bodyCollector();
  const work = tempWorkDir();
  const window = 64;
  // Info level: 10k debug lines would only measure the logger.
  const outbox = new WebhookOutbox({ workDir: work.dir, getSettings: () => ({ webHookUrlsV2: r.url }), logger: pino({ level: 'info' }, { write() {} }), windowPerUrl: window,
    // The test counts one compaction at the end: the minutely one would take part of it on a slow run.
    compactIntervalMs: 3_600_000 });
  const bus = new EventBus();
  outbox.attach(bus);
  await outbox.start();
  try {
    const N = 10_000;
    for (let i = 0; i < N; i++) bus.emit(fileClosedEvent(i));
    // Right after the burst almost everything waits in the journal, not in memory.
    const afterBurst = outbox.stats();
    expect(afterBurst.loaded).toBeLessThanOrEqual(window);
    expect(afterBurst.lanes).toEqual([{ url: r.url, loaded: window, inFlight: expect.any(Number), spilled: true }]);
    expect(afterBurst.journalBytes).toBeGreaterThan(N * 300);

    // ~16 s of CPU alone (10,000 HTTP deliveries, each journaled): on a loaded 2-core machine it takes minutes, so the
    // bound is only there to end a hang.
    await until(() => r.bodies.length >= N, 280_000, 'all deliveries');
    await until(() => outbox.stats().loaded === 0, 5000, 'lane drained');
    const ids = new Set(r.bodies.map((b) => JSON.parse(b).EventId));
    expect(ids.size).toBe(N);
    expect(r.bodies).toHaveLength(N);
    const sizes = new Set(r.bodies.map((b) => JSON.parse(b).EventData.FileSize));
    expect(sizes.size).toBe(N);

    const stats = outbox.stats();
    expect(stats.maxLoaded).toBeLessThanOrEqual(window);
    expect(stats.maxLoaded).toBe(window);
    expect(outbox.compact()).toMatchObject({ kept: 0, dropped: N });
    expect(outbox.stats().journalBytes).toBe(0);
  } finally {
    await outbox.close();
    await r.close();
    work.cleanup();
  }
}, 300_000);
