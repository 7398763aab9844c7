// Post-file jobs end to end on real files, threads and processes: order, outputs, PostProcessed, retries ending in
// a visible failed state, no second run after a restart, and a remux killed with SIGKILL that resumes on the next start.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { closePostPool } from '../../src/post/pool.js';
import { JOBS_JOURNAL_RELATIVE_PATH } from '../../src/post/journal.js';
import { readMp4Summary } from '../../src/post/remux/mp4-summary.js';
import { clip, longFlv, mediaFacts } from './media.js';
import { captureLogger } from '../webhook/helpers.js';
import { fileClosed, removeDir, startQueue, tempWorkDir, type QueueFixture } from './queue-fixture.js';

const REL = join('1001-streamer', 'rec.flv');
const XML = '<?xml version="1.0" encoding="utf-8"?>\n<i><d p="1.000,1,25,16777215,1700000000000,0,1,0" user="u">hello</d><d p="2.000,5,25,16777215,1700000001000,0,1,0" user="u">top</d></i>\n';
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterEach(() => closePostPool());

function setup(): string {
  const dir = tempWorkDir();
  cleanups.push(() => removeDir(dir));
  return dir;
}

function track(fx: QueueFixture): QueueFixture {
  cleanups.push(() => fx.queue.close());
  return fx;
}

const closed = (fx: QueueFixture, rel: string): void => fx.bus.emit({ EventType: 'FileClosed', EventTimestamp: '', EventData: fileClosed(rel) });
const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('post-file jobs', () => {
  it('remux, ASS and command run in order on the closed file, then one PostProcessed', async () => {
    const dir = setup();
    copyFileSync(clip('clip-360p.flv'), join(dir, REL));
    writeFileSync(join(dir, '1001-streamer', 'rec.xml'), XML);
    const envFile = join(dir, 'env.json');
    const script = `require('fs').writeFileSync(${JSON.stringify(envFile)}, JSON.stringify(process.env)); console.log('hello from the command')`;
    const fx = track(startQueue(dir, { PostRemuxToMp4: 'mp4-delete-source', PostDanmakuToAss: true, PostCommand: `${process.execPath}\n-e\n${script}` }));
    const done = fx.processed();
    closed(fx, REL);
    expect(fx.queue.list().map((j) => j.kind)).toEqual(['remux', 'danmaku-ass', 'command']);
    const e = await done;
    expect(e.EventData).toMatchObject({ RelativePath: REL, Succeeded: true, OutputPath: join('1001-streamer', 'rec.mp4') });
    expect(e.EventData.Jobs.map((j) => [j.Kind, j.State, j.Attempts])).toEqual([['remux', 'done', 1], ['danmaku-ass', 'done', 1], ['command', 'done', 1]]);
    expect(existsSync(join(dir, REL))).toBe(false);
    expect(mediaFacts(join(dir, '1001-streamer', 'rec.mp4')).streams.map((s) => s.packets)).toEqual([96, 181]);
    expect(readFileSync(join(dir, '1001-streamer', 'rec.ass'), 'utf8')).toContain('hello');
    const env = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>;
    expect(env).toMatchObject({ LIVEREC_FILE_PATH: join(dir, '1001-streamer', 'rec.mp4'), LIVEREC_RELATIVE_PATH: REL, LIVEREC_ROOM_ID: '1001', LIVEREC_TITLE: 'title' });
    expect(fx.queue.list().every((j) => j.state === 'done')).toBe(true);
  });

  it('a title and name with NUL and other control characters still run PostCommand, which sees them without those (issue 46)', async () => {
    const dir = setup();
    copyFileSync(clip('clip-360p.flv'), join(dir, REL));
    const envFile = join(dir, 'env.json');
    const script = `require('fs').writeFileSync(${JSON.stringify(envFile)}, JSON.stringify(process.env))`;
    const fx = track(startQueue(dir, { PostCommand: `${process.execPath}\n-e\n${script}` }, { maxAttempts: 1, delayMs: () => 0 }));
    const done = fx.processed();
    fx.bus.emit({ EventType: 'FileClosed', EventTimestamp: '', EventData: { ...fileClosed(REL), Title: 'ti\u0000tle\u0007\u001b[31m\u009b', Name: 'str\u0000eamer\u007f', AreaNameChild: 'b\tc' } });
    const e = await done;
    expect(e.EventData.Jobs.map((j) => [j.Kind, j.State, j.Error])).toEqual([['command', 'done', null]]);
    const env = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>;
    expect(env).toMatchObject({ LIVEREC_TITLE: 'title[31m', LIVEREC_ROOM_NAME: 'streamer', LIVEREC_AREA_CHILD: 'bc' });
  });

  it('an HLS fMP4 recording with mp4-delete-source becomes a faststart MP4 in its place', async () => {
    const dir = setup();
    const rel = join('1001-streamer', 'hls.mp4');
    copyFileSync(clip('clip-360p.fmp4'), join(dir, rel));
    // A fragmented MP4 has its moov first too, but it is no remux output: the job must not take it for one.
    expect(readMp4Summary(join(dir, rel))?.faststart).toBe(false);
    const fx = track(startQueue(dir, { PostRemuxToMp4: 'mp4-delete-source' }));
    const done = fx.processed();
    closed(fx, rel);
    const e = await done;
    expect(e.EventData.Jobs.map((j) => [j.Kind, j.State])).toEqual([['remux', 'done']]);
    expect(readMp4Summary(join(dir, rel))?.faststart).toBe(true);
    expect(mediaFacts(join(dir, rel)).streams.map((s) => s.packets)).toEqual(mediaFacts(clip('clip-360p.fmp4')).streams.map((s) => s.packets));
  });

  it('a failing job retries with backoff and ends failed, listed with its error', async () => {
    const dir = setup();
    copyFileSync(clip('clip-360p.flv'), join(dir, REL));
    const fx = track(startQueue(dir, { PostCommand: `${process.execPath}\n-e\nprocess.exit(3)` }, { maxAttempts: 3, delayMs: (n) => 50 * n }));
    const done = fx.processed();
    closed(fx, REL);
    const e = await done;
    expect(e.EventData.Succeeded).toBe(false);
    expect(e.EventData.Jobs).toEqual([{ Kind: 'command', State: 'failed', Attempts: 3, Error: expect.stringContaining('exited with code 3'), Output: null, Skipped: null }]);
    expect(fx.queue.list()[0]).toMatchObject({ state: 'failed', attempts: 3 });
    expect(existsSync(join(dir, REL))).toBe(true);
  });

  it('PostCommand is time-boxed (killed past PostCommandTimeout) and its output goes to the log, tagged with the program only', async () => {
    const dir = setup();
    copyFileSync(clip('clip-360p.flv'), join(dir, REL));
    const cap = captureLogger();
    // sh, not node: a loaded machine once took past the 1-s box to start node, before it printed anything. `exec`
    // leaves no orphan holding the pipes.
    const script = 'echo line one; echo line two >&2; exec sleep 60';
    const fx = track(startQueue(dir, { PostCommand: `/bin/sh\n-c\n${script}\nsecret-token=abc123`, PostCommandTimeout: 2 }, { maxAttempts: 1, delayMs: () => 0 }, { logger: cap.log }));
    const done = fx.processed();
    closed(fx, REL);
    const e = await done;
    expect(e.EventData.Jobs[0]).toMatchObject({ Kind: 'command', State: 'failed', Error: expect.stringContaining('over PostCommandTimeout 2 s') });
    expect(cap.lines.find((l) => l.msg === 'line one')).toMatchObject({ program: '/bin/sh', stream: 'stdout', level: 30 });
    expect(cap.lines.find((l) => l.msg === 'line two')).toMatchObject({ stream: 'stderr', level: 40 });
    expect(JSON.stringify(cap.lines)).not.toContain('abc123');
  });

  it('a finished job is not run again after a restart, even when FileClosed comes again', async () => {
    const dir = setup();
    copyFileSync(clip('clip-360p.flv'), join(dir, REL));
    const count = join(dir, 'count.txt');
    const cmd = `${process.execPath}\n-e\nrequire('fs').appendFileSync(${JSON.stringify(count)}, 'x')`;
    const first = startQueue(dir, { PostCommand: cmd });
    const done = first.processed();
    closed(first, REL);
    await done;
    await first.queue.close();
    const second = track(startQueue(dir, { PostCommand: cmd }));
    closed(second, REL);
    await second.queue.idle();
    expect(readFileSync(count, 'utf8')).toBe('x');
    expect(second.queue.list()).toHaveLength(1);
    expect(second.events.filter((x) => x.EventType === 'PostProcessed')).toHaveLength(0);
  });

  it('kill -9 during a remux leaves the source untouched, and the next start resumes the job', async () => {
    const dir = setup();
    const src = join(dir, REL);
    longFlv('clip-360p.flv', 600, src);
    const before = sha(src);
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./remux-child.ts', import.meta.url)), dir, REL], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(() => child.kill('SIGKILL'));
    const folder = join(dir, '1001-streamer');
    const deadline = Date.now() + 60_000;
    while (!readdirSync(folder).some((f) => f.endsWith('.remux-tmp'))) {
      if (Date.now() > deadline) throw new Error('the remux never started');
      await new Promise((r) => setTimeout(r, 2));
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(sha(src)).toBe(before);
    expect(existsSync(join(folder, 'rec.mp4'))).toBe(false);
    const journal = readFileSync(join(dir, JOBS_JOURNAL_RELATIVE_PATH), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { state: string });
    expect(journal.at(-1)!.state).toBe('running');

    const fx = track(startQueue(dir, { PostRemuxToMp4: 'mp4-delete-source' }));
    const e = await fx.processed(120_000);
    expect(e.EventData.Jobs).toEqual([{ Kind: 'remux', State: 'done', Attempts: 2, Error: null, Output: join('1001-streamer', 'rec.mp4'), Skipped: null }]);
    expect(existsSync(src)).toBe(false);
    expect(readdirSync(folder).filter((f) => f.includes('tmp'))).toEqual([]);
    const facts = mediaFacts(join(folder, 'rec.mp4'));
    expect(facts.streams.map((s) => s.packets)).toEqual([96 * 600, expect.any(Number)]);
    expect(facts.videoDuration).toBeGreaterThan(2300);
  });
});
