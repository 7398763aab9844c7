// The journal on disk: written before the first attempt, hand-written journals resume correctly, compaction, lock, recent list.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { WebhookOutbox } from '../../src/webhook/outbox.js';
import { errorCode } from '../../src/errors.js';
import { captureLogger, startReceiver, streamStartedEvent, tempWorkDir, until, type Behaviour, type Receiver } from './helpers.js';

async function receiver(t: TestContext, b: Behaviour): Promise<Receiver> {
  const r = await startReceiver(b);
  t.onTestFinished(() => r.close());
  return r;
}

function make(t: TestContext, dir: string, urls: string, extra: Partial<ConstructorParameters<typeof WebhookOutbox>[0]> = {}) {
  const cap = captureLogger();
  const o = new WebhookOutbox({ workDir: dir, getSettings: () => ({ webHookUrlsV2: urls }), logger: cap.log, ...extra });
  t.onTestFinished(() => o.close());
  return { o, cap };
}

function workDir(t: TestContext): string {
  const w = tempWorkDir();
  t.onTestFinished(w.cleanup);
  return w.dir;
}

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe.concurrent('webhook journal', () => {
  it('the event and the attempt are on disk before the receiver sees the request', async (t) => {
    const dir = workDir(t);
    let seenOnDisk: { r: string }[] = [];
    let journalPath = '';
    const r = await receiver(t, () => {
      seenOnDisk = lines(journalPath);
      return 200;
    });
    const { o } = make(t, dir, r.url);
    journalPath = o.journalPath;
    expect(o.journalPath).toBe(`${dir}/.liverec/webhook-outbox.jsonl`);
    await o.start();
    const id = o.publish(streamStartedEvent());
    await r.waitFor(1);
    expect(seenOnDisk.map((l) => l.r)).toEqual(['msg', 'try']);
    expect(seenOnDisk[0]).toMatchObject({ r: 'msg', m: id, v: 2, t: 'StreamStarted', u: [r.url], b: r.requests[0].body });
    expect(seenOnDisk[1]).toMatchObject({ r: 'try', m: id, i: 0, n: 1 });
    await until(() => lines(o.journalPath).length === 3, 5000, 'outcome line');
    expect(lines(o.journalPath)[2]).toMatchObject({ r: 'res', m: id, i: 0, n: 1, ok: true, st: 200, fin: 'delivered' });
  });

  it('a hand-written journal: folded state resumes, spent targets are given up, torn and foreign lines are counted and skipped', async (t) => {
    const dir = workDir(t);
    const r = await receiver(t, () => 200);
    const { o, cap } = make(t, dir, r.url);
    const body = (id: string) => JSON.stringify({ EventType: 'StreamEnded', EventTimestamp: '2026-01-01T00:00:00.000+08:00', EventId: id, EventData: { RoomId: 1 } });
    const A = '00000000-0000-4000-8000-00000000000a'; // 1 attempt made long ago: 2 left, due now
    const B = '00000000-0000-4000-8000-00000000000b'; // 3rd attempt started, never finished: given up
    const C = '00000000-0000-4000-8000-00000000000c'; // delivered: dropped
    const D = '00000000-0000-4000-8000-00000000000d'; // compacted earlier with 2 attempts: 1 left
    const old = Date.now() - 60_000;
    const journal = [
      { r: 'msg', m: A, v: 2, t: 'StreamEnded', at: old, u: [r.url], b: body(A) },
      { r: 'msg', m: B, v: 2, t: 'StreamEnded', at: old, u: [r.url], b: body(B) },
      { r: 'msg', m: C, v: 2, t: 'StreamEnded', at: old, u: [r.url], b: body(C) },
      { r: 'msg', m: D, v: 2, t: 'StreamEnded', at: old, u: [r.url, r.url], b: body(D), s: [{ n: 2, last: old, st: 500, err: 'HTTP 500' }, null] },
      { r: 'try', m: A, i: 0, n: 1, at: old },
      { r: 'res', m: A, i: 0, n: 1, ok: false, at: old, st: 502, err: 'HTTP 502' },
      { r: 'try', m: B, i: 0, n: 3, at: old },
      { r: 'try', m: C, i: 0, n: 1, at: old },
      { r: 'res', m: C, i: 0, n: 1, ok: true, at: old, st: 200, fin: 'delivered' },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    mkdirSync(dirname(o.journalPath), { recursive: true });
    writeFileSync(o.journalPath, `${journal}\nnot json at all\n{"r":"msg","m":"x"}\n{"r":"try","m":"${A}","i":0,"n":2,"a`);
    await o.start();
    expect(cap.find('webhook journal compacted')[0]).toMatchObject({ kept: 2, dropped: 2, anomalies: 3 });
    expect(cap.find('webhook journal had unreadable lines: set aside, the rest goes on')).toHaveLength(1);
    expect(cap.find('webhook given up after 3 attempts (the last one was interrupted)')).toMatchObject([{ eventId: B, attempts: 3 }]);
    await r.waitFor(2);
    await until(() => cap.find('webhook delivered').length === 2, 5000, 'deliveries');
    expect(r.requests.map((q) => JSON.parse(q.body).EventId).sort()).toEqual([A, D]);
    expect(r.requests.find((q) => JSON.parse(q.body).EventId === A)!.body).toBe(body(A));
    const attempts = cap.find('webhook attempt').map((l) => [l.eventId, l.attempt]);
    expect(attempts).toEqual(expect.arrayContaining([[A, 2], [D, 3]]));
    expect(attempts).toHaveLength(2);
  });

  it('a damaged journal (junk and a 20 MiB run without a newline) still starts: the damage is set aside in a file, both messages around it go out', async (t) => {
    const dir = workDir(t);
    const r = await receiver(t, () => 200);
    const { o, cap } = make(t, dir, r.url);
    const body = (id: string) => JSON.stringify({ EventType: 'StreamEnded', EventTimestamp: '2026-01-01T00:00:00.000+08:00', EventId: id, EventData: { RoomId: 1 } });
    const A = '00000000-0000-4000-8000-0000000000a1';
    const B = '00000000-0000-4000-8000-0000000000b1';
    const msg = (m: string) => `${JSON.stringify({ r: 'msg', m, v: 2, t: 'StreamEnded', at: Date.now() - 1000, u: [r.url], b: body(m) })}\n`;
    mkdirSync(dirname(o.journalPath), { recursive: true });
    writeFileSync(o.journalPath, Buffer.concat([Buffer.from(msg(A)), Buffer.from([0, 0xff, 0xfe, 10]), Buffer.alloc(20 << 20, 0x42), Buffer.from(`\n${msg(B)}`)]));
    await o.start();
    await until(() => cap.find('webhook delivered').length === 2, 10_000, 'deliveries');
    expect(r.requests.map((q) => JSON.parse(q.body).EventId).sort()).toEqual([A, B]);
    const warn = cap.find('webhook journal had unreadable lines: set aside, the rest goes on')[0]!;
    expect(warn).toMatchObject({ anomalies: 2, code: 'WEBHOOK_JOURNAL_ANOMALY' });
    const aside = readFileSync(warn.setAside as string, 'utf8').split('\n').filter(Boolean);
    expect(aside).toHaveLength(2);
    expect(JSON.parse(aside[1]!)).toMatchObject({ setAside: 'too-long', bytes: (20 << 20) + 1 });
  });

  it('is compacted periodically: delivered entries disappear from disk', async (t) => {
    const dir = workDir(t);
    const r = await receiver(t, () => 200);
    const { o, cap } = make(t, dir, r.url, { compactIntervalMs: 100 });
    await o.start();
    for (let i = 0; i < 5; i++) o.publish(streamStartedEvent());
    await r.waitFor(5);
    await until(() => cap.find('webhook delivered').length === 5, 5000, 'deliveries');
    await until(() => readFileSync(o.journalPath, 'utf8') === '', 5000, 'compaction');
    const dropped = cap.find('webhook journal compacted').reduce((a, l) => a + (l.dropped as number), 0);
    expect(dropped).toBe(5);
  });

  it('only one outbox may own a journal; the lock is released on close', async (t) => {
    const dir = workDir(t);
    const first = make(t, dir, '');
    const second = make(t, dir, '');
    await first.o.start();
    const err = await second.o.start().then(() => null, (e: unknown) => e);
    expect(errorCode(err)).toBe('WEBHOOK_JOURNAL_LOCKED');
    await first.o.close();
    await second.o.start();
    expect(second.o.stats().started).toBe(true);
  });

  it('keeps a bounded list of recent deliveries, most recently updated first', async (t) => {
    const dir = workDir(t);
    const r = await receiver(t, (n) => (n === 1 ? 500 : 200));
    const { o } = make(t, dir, r.url, { recentLimit: 5 });
    await o.start();
    const ids = Array.from({ length: 12 }, () => o.publish(streamStartedEvent())!);
    await r.waitFor(13);
    // The one that failed first is retried after 1 s, so it finishes last and heads the list.
    const retried = JSON.parse(r.requests[0].body).EventId;
    await until(() => o.recentDeliveries()[0]?.eventId === retried && o.recentDeliveries()[0].state === 'delivered', 5000, 'retried delivery');
    const list = o.recentDeliveries();
    expect(list).toHaveLength(5);
    expect(list[0]).toMatchObject({ url: r.url, attempts: 2, state: 'delivered', lastStatus: 200, lastError: null, lastErrorCode: null, nextAttemptAt: null });
    expect(list[0].finishedAt).toMatch(/\+00:00$/);
    expect(list.every((d) => ids.includes(d.eventId) && d.state === 'delivered')).toBe(true);
    const updated = list.map((d) => Date.parse(d.updatedAt));
    expect([...updated].sort((a, b) => b - a)).toEqual(updated);
  });
});
