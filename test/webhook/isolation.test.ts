// A hanging receiver must not delay the other receivers: every event reaches them within 100 ms of emission.
import { expect, it } from 'vitest';
import { EventBus } from '../../src/events/bus.js';
import { WebhookOutbox } from '../../src/webhook/outbox.js';
import { captureLogger, sleep, startReceiver, streamStartedEvent, tempWorkDir } from './helpers.js';

it('three URLs, one hanging: the other two get every event within 100 ms', async () => {
  const hang = await startReceiver(() => 'hang');
  const a = await startReceiver(() => 200);
  const b = await startReceiver(() => 200);
  const work = tempWorkDir();
  const cap = captureLogger();
  // Default 10 s timeout: the hanging lane fills its 4 slots and its window, and spills to the journal.
  const outbox = new WebhookOutbox({ workDir: work.dir, getSettings: () => ({ webHookUrlsV2: [hang.url, a.url, b.url].join('\n') }), logger: cap.log, windowPerUrl: 16 });
  const bus = new EventBus();
  outbox.attach(bus);
  await outbox.start();
  try {
    const emittedAt = new Map<string, number>();
    const count = 40;
    for (let i = 0; i < count; i++) {
      const before = Date.now();
      bus.emit(streamStartedEvent());
      const id = outbox.recentDeliveries()[0].eventId;
      emittedAt.set(id, before);
      await sleep(15);
    }
    await a.waitFor(count, 5000);
    await b.waitFor(count, 5000);
    for (const r of [a, b]) {
      const ids = r.requests.map((q) => JSON.parse(q.body).EventId as string);
      expect(new Set(ids)).toEqual(new Set(emittedAt.keys()));
      const lateness = r.requests.map((q) => q.at - emittedAt.get(JSON.parse(q.body).EventId)!);
      expect(Math.max(...lateness)).toBeLessThan(100);
    }
    expect(hang.requests.length).toBe(4); // bounded concurrency towards the dead receiver
    const lane = outbox.stats().lanes.find((l) => l.url === hang.url)!;
    expect(lane).toMatchObject({ inFlight: 4, loaded: 16, spilled: true });
  } finally {
    await outbox.close();
    await Promise.all([hang.close(), a.close(), b.close()]);
    work.cleanup();
  }
});
