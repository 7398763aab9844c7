// Issue 46, break 2: a 600 MiB post-file job journal (17 days of 50 rooms without compaction) with a damaged part
// (binary junk and a 6 MiB run without a newline) lets the service start in under 10 s of CPU: read as a stream, the
// damage set aside in a file of its own, every unfinished job resumed, the journal compacted to the live set.
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PostJob } from '../../src/post/job.js';
import { JOBS_JOURNAL_RELATIVE_PATH, KEEP_FINISHED } from '../../src/post/journal.js';
import { fileClosed, startQueue } from './queue-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-journal-large-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const job = (n: number, kind: PostJob['kind'], step: number, state: PostJob['state'], at: number): PostJob => ({
  id: `f${n}:${kind}`, fileId: `f${n}`, kind, step, roomId: 1001 + (n % 50), source: `/work/1001-streamer/录制-1001-${n}.flv`,
  params: kind === 'remux' ? { deleteSource: false } : {}, state, attempts: state === 'pending' ? 0 : 1, createdAt: at, updatedAt: at + step,
  dueAt: 0, error: state === 'failed' ? 'the command exited with code 1: 命令失败 '.repeat(4) : null, output: null,
  file: { ...fileClosed(`1001-streamer/录制-1001-${n}.flv`), Title: '【直播】一个足够长的标题，和真实的直播间一样长 '.repeat(3) },
});

describe('a 600 MiB job journal', () => {
  it('starts the queue in under 10 s, sets the damaged part aside, resumes the unfinished jobs, compacts', async () => {
    const workDir = join(dir, 'work');
    const path = join(workDir, JOBS_JOURNAL_RELATIVE_PATH);
    rmSync(workDir, { recursive: true, force: true });
    readdirSync(dir);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(workDir, '.liverec'), { recursive: true });
    const fd = openSync(path, 'w');
    const junkAt = 300 << 20;
    let written = 0;
    let n = 0;
    try {
      // A block of 200 files' jobs (remux and command, pending → running → done or failed: three lines a job), made
      // once; each copy gets new file numbers patched into its ids, so every file is a different one.
      const FILES = 200;
      const digits = (k: number): string => String(k).padStart(9, '0');
      const lines: string[] = [];
      for (let i = 0; i < FILES; i++) {
        for (const [kind, step] of [['remux', 0], ['command', 1]] as const) {
          const at = 1_700_000_000_000 + i * 1000;
          for (const state of ['pending', 'running', i % 7 === 0 ? 'failed' : 'done'] as const) {
            lines.push(`${JSON.stringify({ ...job(i, kind, step, state, at), id: `f${digits(i)}:${kind}`, fileId: `f${digits(i)}` })}\n`);
          }
        }
      }
      const template = Buffer.from(lines.join(''));
      const marks: { at: number; file: number }[] = [];
      for (let p = 0, i = 0; p < template.length; i++) {
        const file = Math.floor(i / 6);
        marks.push({ at: p + '{"id":"f'.length, file }, { at: template.indexOf('"fileId":"f', p, 'latin1') + '"fileId":"f'.length, file });
        p = template.indexOf(10, p) + 1;
      }
      for (let b = 0; written < 600 << 20; b++) {
        const block = Buffer.from(template);
        for (const m of marks) block.write(digits(b * FILES + m.file), m.at, 'latin1');
        writeSync(fd, block);
        written += block.length;
        n = (b + 1) * FILES;
        if (written >= junkAt && written - block.length < junkAt) {
          writeSync(fd, Buffer.concat([Buffer.from([0, 1, 2, 0xff, 0xfe, 10]), Buffer.alloc(6 << 20, 0x41), Buffer.from('\n')]));
        }
      }
      // The last three files' jobs never ended: a kill cut them.
      for (let k = 0; k < 3; k++, n++) writeSync(fd, `${JSON.stringify(job(n, 'remux', 0, k === 0 ? 'running' : 'pending', 1_800_000_000_000 + k))}\n`);
    } finally {
      closeSync(fd);
    }
    expect(statSync(path).size).toBeGreaterThan(600 << 20);

    // CPU time, not wall time: on a machine shared with other work the wall clock measures the others too.
    const started = process.cpuUsage();
    const wallStart = performance.now();
    const fx = startQueue(workDir, {}, undefined, { runner: { run: () => new Promise(() => {}) } });
    const cpu = process.cpuUsage(started);
    const took = (cpu.user + cpu.system) / 1000;
    console.log(`600 MiB journal: queue start took ${took.toFixed(0)} ms of CPU, ${(performance.now() - wallStart).toFixed(0)} ms of wall time`);
    try {
      expect(took).toBeLessThan(10_000);
      const list = fx.queue.list();
      expect(list.filter((j) => j.state !== 'done' && j.state !== 'failed').map((j) => j.fileId).sort()).toEqual([`f${n - 3}`, `f${n - 2}`, `f${n - 1}`]);
      expect(list.filter((j) => j.state === 'done' || j.state === 'failed').length).toBe(KEEP_FINISHED);
      // Compacted to the live set; the damage is in a file of its own.
      expect(statSync(path).size).toBeLessThan(4 << 20);
      const aside = readdirSync(join(workDir, '.liverec')).filter((f) => f.startsWith('post-jobs.damaged-'));
      expect(aside).toHaveLength(1);
      const text = readFileSync(join(workDir, '.liverec', aside[0]!), 'utf8');
      expect(text).toContain('"setAside":"too-long"');
      expect(text.split('\n').filter(Boolean)).toHaveLength(2);
    } finally {
      await fx.queue.close();
      rmSync(workDir, { recursive: true, force: true });
    }
    expect(existsSync(workDir)).toBe(false);
  }, 120_000);
});
