// Webhook deliveries never follow redirects: a 3xx is a failed attempt, logged with its Location; the target gets nothing.
import { createServer } from 'node:http';
import { expect, it } from 'vitest';
import { WebhookOutbox } from '../../src/webhook/outbox.js';
import { captureLogger, startReceiver, streamStartedEvent, tempWorkDir, until } from '../webhook/helpers.js';

it('a receiver answering 301/302/307/308 gets 3 attempts; the redirect target is never contacted', async () => {
  // The target stands for liverec's own API (e.g. /api/room/1/stop): it must see no request at all.
  const target = await startReceiver(() => 200, '/api/room/10003/stop');
  const statuses = [301, 302, 307, 308];
  let n = 0;
  const redirector = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(statuses[n++ % statuses.length]!, { location: target.url }).end());
  });
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(redirector.address() as { port: number }).port}/hook`;
  const work = tempWorkDir();
  const cap = captureLogger();
  const outbox = new WebhookOutbox({ workDir: work.dir, logger: cap.log, getSettings: () => ({ webHookUrlsV2: url, webHookUrls: url }) });
  await outbox.start();
  try {
    outbox.publish({ ...streamStartedEvent() });
    await until(() => cap.find('webhook given up after 3 attempts').length === 1, 30_000, 'give-up');
    expect(target.requests).toEqual([]);
    const failed = cap.find('webhook attempt failed; will retry');
    expect(failed.map((l) => l.code)).toEqual(['WEBHOOK_REDIRECT', 'WEBHOOK_REDIRECT']);
    for (const l of [...failed, ...cap.find('webhook given up after 3 attempts')]) expect(String(l.err)).toContain(`redirect to ${target.url}`);
    const [d] = outbox.recentDeliveries();
    expect(d).toMatchObject({ state: 'given-up', attempts: 3, lastErrorCode: 'WEBHOOK_REDIRECT' });
    expect(statuses).toContain(d!.lastStatus);
  } finally {
    await outbox.close();
    await target.close();
    await new Promise<void>((resolve) => redirector.close(() => resolve()));
    work.cleanup();
  }
});
