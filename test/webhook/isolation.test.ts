// A hanging receiver must not delay the other receivers: they get every event while the hanging one still holds its first.
import { expect, it } from 'vitest';
import { EventBus } from '../../src/events/bus.js';
import { WebhookOutbox } from '../../src/webhook/outbox.js';
import { captureLogger, startReceiver, streamStartedEvent, tempWorkDir } from './helpers.js';

it('three URLs, one hanging: the other two get every event while the hanging one has answered none', async () => {
  const hang = await startReceiver(() => 'hang');
  const a = await startReceiver(() => 200);
  const b = await startReceiver(() => 200);
  const work = tempWorkDir();
  const cap = captureLogger();
  // A timeout far beyond the test: the hanging lane fills its 4 slots and its window, and spills to the journal,
  // and none of its attempts can end before the healthy receivers are done (no wall-clock margin is involved).
  const outbox = new WebhookOutbox({
    workDir: work.dir, logger: cap.log, windowPerUrl: 16,
    getSettings: () => ({ webHookUrlsV2: [hang.url, a.url, b.url].join('\n'), timeoutMs: 600_000 }),
  });
  const bus = new EventBus();
  outbox.attach(bus);
  await outbox.start();
  try {
    const ids: string[] = [];
    const count = 40;
    for (let i = 0; i < count; i++) {
      bus.emit(streamStartedEvent());
      ids.push(outbox.recentDeliveries()[0].eventId);
    }
    await a.waitFor(count, 60_000);
    await b.waitFor(count, 60_000);
    for (const r of [a, b]) {
      expect(new Set(r.requests.map((q) => JSON.parse(q.body).EventId as string))).toEqual(new Set(ids));
    }
    // The hanging receiver still holds its first requests: it has answered nothing, yet the others got everything.
    await hang.waitFor(4, 60_000);
    expect(hang.requests.length).toBe(4); // bounded concurrency towards the dead receiver
    const hangDone = outbox.recentDeliveries().filter((d) => d.url === hang.url && (d.lastStatus !== null || d.lastError !== null));
    expect(hangDone).toEqual([]);
    const lane = outbox.stats().lanes.find((l) => l.url === hang.url)!;
    expect(lane).toMatchObject({ inFlight: 4, loaded: 16, spilled: true });
  } finally {
    await outbox.close();
    await Promise.all([hang.close(), a.close(), b.close()]);
    work.cleanup();
  }
});
