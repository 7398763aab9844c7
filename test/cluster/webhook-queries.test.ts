// The cluster outbox's SQL on a real PostgreSQL: concurrent claims never overlap, 3 attempts at most, expired claims, pruning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/cluster/db.js';
import { migrate } from '../../src/cluster/migrations.js';
import { claimDue, finishAttempt, giveUpExhausted, insertDeliveries, pruneFinished } from '../../src/cluster/webhook-queries.js';
import { startPostgres } from './harness.js';

describe('cluster webhook outbox queries', () => {
  let server: Awaited<ReturnType<typeof startPostgres>>;
  let db: Db;
  const row = (eventId: string) => ({ eventId, urlIndex: 0, version: 2 as const, eventType: 'SessionStarted', url: 'http://127.0.0.1:9/x', body: `{"EventId":"${eventId}"}` });
  const state = async (eventId: string) => (await db.query<{ state: string; attempts: number }>('SELECT state, attempts FROM liverec_webhook_deliveries WHERE event_id = $1', [eventId])).rows[0]!;

  beforeAll(async () => {
    server = await startPostgres();
    db = openDb({ url: server.url, max: 8, timeoutMs: 30_000 });
    await migrate(db);
  }, 60_000);

  afterAll(async () => {
    await db?.end();
    await server?.stop();
  });

  it('two nodes claiming at once never get the same delivery; a repeated insert is one delivery', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `e-${i}`);
    await insertDeliveries(db, 'a', ids.map(row));
    await insertDeliveries(db, 'a', ids.slice(0, 5).map(row));
    const [a, b] = await Promise.all([claimDue(db, 'a', 30, 60_000), claimDue(db, 'b', 30, 60_000)]);
    const claimed = [...a, ...b].map((d) => d.eventId);
    expect(claimed.length).toBe(40);
    expect(new Set(claimed).size).toBe(40);
    expect([...a, ...b].every((d) => d.attempts === 1)).toBe(true);
    // Claimed rows are nobody else's until their claim expires.
    expect(await claimDue(db, 'c', 100, 60_000)).toEqual([]);
  });

  it('three attempts at most; an expired claim keeps its attempt counted; a late outcome of a lost claim is ignored', async () => {
    await insertDeliveries(db, 'a', [row('r')]);
    const first = (await claimDue(db, 'a', 100, 60_000)).find((d) => d.eventId === 'r')!;
    await finishAttempt(db, 'a', first, false, 503, 'HTTP 503');
    await new Promise((r) => setTimeout(r, 1100));
    const second = (await claimDue(db, 'b', 100, 100)).find((d) => d.eventId === 'r')!;
    expect(second.attempts).toBe(2);
    // b dies mid-attempt: its claim (100 ms) expires and the attempt stays counted.
    await new Promise((r) => setTimeout(r, 300));
    const third = (await claimDue(db, 'c', 100, 60_000)).find((d) => d.eventId === 'r')!;
    expect(third.attempts).toBe(3);
    await finishAttempt(db, 'b', second, true, 200, null); // b's late answer: not its claim any more
    expect(await state('r')).toEqual({ state: 'pending', attempts: 3 });
    await finishAttempt(db, 'c', third, false, 500, 'HTTP 500');
    expect(await state('r')).toEqual({ state: 'given-up', attempts: 3 });
    await new Promise((r) => setTimeout(r, 2100));
    expect((await claimDue(db, 'a', 100, 60_000)).some((d) => d.eventId === 'r')).toBe(false);
  });

  it('a 3rd attempt cut by a dead node is given up; finished rows are pruned after the retention', async () => {
    await db.query(`UPDATE liverec_webhook_deliveries SET attempts = 3, claimed_by = 'x', claim_expires = now() - interval '1 s' WHERE event_id = 'e-0'`);
    await giveUpExhausted(db);
    expect((await state('e-0')).state).toBe('given-up');
    expect(await pruneFinished(db, 3_600_000)).toBe(0);
    const pruned = await pruneFinished(db, 0);
    expect(pruned).toBe(2); // e-0 and r
    expect((await db.query('SELECT 1 FROM liverec_webhook_deliveries WHERE event_id = $1', ['r'])).rowCount).toBe(0);
  });
});
