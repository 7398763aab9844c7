// The cluster's one API budget on real PostgreSQL: three nodes' limiters together never get more than the budget a minute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiLimiter } from '../../src/bilibili/api-limiter.js';
import { ClusterBudget, grantTokens } from '../../src/cluster/cluster-budget.js';
import { inTransaction, openDb, type Db } from '../../src/cluster/db.js';
import { migrate } from '../../src/cluster/migrations.js';
import { startPostgres, startProxy } from './harness.js';

describe('the cluster API budget', () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  let db: Db;

  beforeAll(async () => {
    postgres = await startPostgres();
    db = openDb({ url: postgres.url, timeoutMs: 10_000 });
    await migrate(db);
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await postgres?.stop();
  }, 60_000);

  it('grants never add up to more than the budget within a minute, however many ask at once', async () => {
    await db.query('DELETE FROM liverec_api_budget');
    const asks = await Promise.all(Array.from({ length: 30 }, () => grantTokens(db, 3, 40)));
    const granted = asks.reduce((s, g) => s + g.granted, 0);
    expect(granted).toBe(40);
    expect(asks.every((g) => g.expiresInMs > 0 && g.expiresInMs <= 10_000)).toBe(true);
    expect((await grantTokens(db, 3, 40)).granted).toBe(0);
  }, 60_000);

  it('three nodes calling flat out share one budget, each getting some, and a risk-control pause reaches them all', async () => {
    await db.query('DELETE FROM liverec_api_budget');
    const BUDGET = 24;
    const nodes = Array.from({ length: 3 }, () => {
      // The node's own spacing is far above the cluster's budget: only the grants hold the calls back.
      const limiter = ApiLimiter.create({ perMinute: 60_000 });
      const pools = openDb({ url: postgres.url, max: 2, timeoutMs: 10_000 });
      const budget = new ClusterBudget(pools, limiter, () => BUDGET);
      return { limiter, pools, budget, calls: 0 };
    });
    nodes.forEach((n) => n.budget.start());
    const end = Date.now() + 15_000;
    const callers = nodes.flatMap((n) => Array.from({ length: 4 }, async () => {
      while (Date.now() < end) {
        const signal = AbortSignal.timeout(Math.max(1, end - Date.now()));
        try {
          await n.limiter.acquire(signal);
        } catch {
          break;
        }
        if (Date.now() < end) n.calls++;
      }
    }));
    await Promise.all(callers);
    const total = nodes.reduce((s, n) => s + n.calls, 0);
    expect(total).toBeLessThanOrEqual(BUDGET);
    expect(total).toBeGreaterThanOrEqual(BUDGET / 2);
    for (const n of nodes) expect(n.calls).toBeGreaterThan(0);
    // Database calls are per grant, not per API call.
    expect(nodes.reduce((s, n) => s + n.budget.grants, 0)).toBeLessThan(total * 2);

    nodes[0]!.limiter.pause(20_000);
    const start = Date.now();
    while (Date.now() - start < 10_000 && nodes.some((n) => n.limiter.pausedUntil() <= Date.now())) await new Promise((r) => setTimeout(r, 100));
    for (const n of nodes) expect(n.limiter.pausedUntil()).toBeGreaterThan(Date.now() + 5000);
    for (const n of nodes) {
      n.budget.stop();
      expect(n.limiter.grantState().left).toBe(-1);
      await n.pools.end();
    }
  }, 90_000);

  it('a node cut off from the database in the middle of a grant holds the budget up for one timeout, not for good', async () => {
    await db.query('DELETE FROM liverec_api_budget');
    await db.query(`UPDATE liverec_api_pause SET paused_until = 'epoch'`);
    // Node A reaches PostgreSQL through a relay that is cut right after A took the budget's lock: its transaction is
    // left open on the server with the lock held, and no message of A's will ever end it (the TCP connection stays up).
    const proxy = await startProxy(postgres.port);
    const a = openDb({ url: postgres.url.replace(`:${postgres.port}/`, `:${proxy.port}/`) });
    const b = openDb({ url: postgres.url });
    const limiter = ApiLimiter.create({ perMinute: 60_000 });
    const budget = new ClusterBudget(b, limiter, () => 600);
    try {
      const cut = proxy.cutAfter('pg_advisory_xact_lock');
      const stranded = grantTokens(a, 1, 600).catch((err: unknown) => err);
      await cut;
      // Node B's next live-API call needs a token of the cluster's budget.
      budget.start();
      await limiter.acquire(AbortSignal.timeout(60_000), 'start');
      expect(budget.tokens).toBeGreaterThan(0);
      expect(await stranded).toBeInstanceOf(Error);
    } finally {
      budget.stop();
      await proxy.close();
      await Promise.all([a.end().catch(() => undefined), b.end()]);
    }
  }, 90_000);

  it('a transaction its node leaves idle is ended by the server, and fails there with an error instead of ending the process', async () => {
    const stalled = openDb({ url: postgres.url, timeoutMs: 1000 });
    try {
      const outcome = await inTransaction(stalled, async (c) => {
        await c.query('SELECT pg_advisory_xact_lock($1)', [0x6c7674]);
        // The node stalls (a long pause, a partition that healed): the server ends the session meanwhile.
        await new Promise((r) => c.once('end', r));
        await c.query('SELECT 1');
      }).then(() => 'committed', (err: unknown) => err);
      expect(outcome).toBeInstanceOf(Error);
      // The lock went with the session: another connection takes it at once.
      const { rows } = await db.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [0x6c7674]);
      expect(rows[0]!.got).toBe(true);
      await db.query('SELECT pg_advisory_unlock($1)', [0x6c7674]);
      // The pool goes on with a new connection.
      expect((await stalled.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
    } finally {
      await stalled.end();
    }
  }, 60_000);
});
