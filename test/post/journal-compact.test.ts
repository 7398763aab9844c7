// The job journal compacts while running, by size and by age, to the live set (unfinished chains + newest finished),
// and a torn or foreign line found at start is set aside in a file of its own, not lost and not fatal.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PostJob } from '../../src/post/job.js';
import { COMPACT_AGE_MS, JobJournal, KEEP_FINISHED, liveSet } from '../../src/post/journal.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-journal-compact-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const job = (n: number, state: PostJob['state'], at = n): PostJob => ({
  id: `f${n}:remux`, fileId: `f${n}`, kind: 'remux', step: 0, roomId: 1, source: `/w/${n}.flv`, params: {}, state, attempts: 1,
  createdAt: at, updatedAt: at, dueAt: 0, error: null, output: null, file: null,
});

describe('job journal compaction', () => {
  it('by size: past its growth bound the journal wants a compaction, which keeps only the live set', () => {
    const path = join(dir, 'size', 'post-jobs.jsonl');
    const j = new JobJournal(path, Date.now, 160 * 1024);
    j.load();
    const all: PostJob[] = [];
    for (let n = 0; n < 5000 && !j.wantsCompaction; n++) {
      const x = job(n, n === 3 ? 'running' : 'done');
      all.push(x);
      j.write(x);
    }
    expect(j.wantsCompaction).toBe(true);
    expect(all.length).toBeGreaterThan(KEEP_FINISHED);
    j.rewrite(liveSet(all));
    expect(j.wantsCompaction).toBe(false);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as PostJob);
    expect(lines).toHaveLength(KEEP_FINISHED + 1);
    expect(lines.some((l) => l.id === 'f3:remux' && l.state === 'running')).toBe(true);
    j.close();
  });

  it('by age: a day after the last compaction, with anything appended, it wants one', () => {
    let now = 1_000_000;
    const j = new JobJournal(join(dir, 'age', 'post-jobs.jsonl'), () => now);
    j.load();
    now += COMPACT_AGE_MS + 1;
    expect(j.wantsCompaction).toBe(false);
    j.write(job(1, 'done'));
    expect(j.wantsCompaction).toBe(true);
    j.close();
  });

  it('a torn line and a foreign one at start are set aside and reported; the jobs around them load', () => {
    const path = join(dir, 'torn', 'post-jobs.jsonl');
    new JobJournal(path).load();
    writeFileSync(path, `${JSON.stringify(job(1, 'pending'))}\nnot a job\n${JSON.stringify(job(2, 'done'))}\n{"id":"f1:remux","fileId":"f1","kind":"remux","state":"done","upd`);
    const j = new JobJournal(path);
    const jobs = j.load();
    expect(jobs.map((x) => [x.id, x.state])).toEqual([['f1:remux', 'pending'], ['f2:remux', 'done']]);
    expect(j.damage).toMatchObject({ lines: 2 });
    const aside = readdirSync(join(dir, 'torn')).filter((f) => f.startsWith('post-jobs.damaged-'));
    expect(readFileSync(join(dir, 'torn', aside[0]!), 'utf8')).toBe('not a job\n{"id":"f1:remux","fileId":"f1","kind":"remux","state":"done","upd\n');
    expect(statSync(path).size).toBeLessThan(2000);
    j.close();
  });
});
