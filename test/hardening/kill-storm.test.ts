// kill -9 at random moments around file opens and closes, three busy loops beside it: after the restarts every file on
// disk got exactly one FileClosed, and its onMetaData duration matches its content within one frame.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAmf } from '../../src/flv/amf.js';
import { getNumber, onMetaDataMap } from '../../src/flv/metadata.js';
import { cliEntry } from '../../src/paths.js';
import { Simulator, type RunningSimulator } from '../../src/simulator/index.js';
import { ffprobeBin } from '../support/media-tools.js';
import { sleep } from '../rooms/harness.js';
import { type Receiver, startReceiver } from '../webhook/helpers.js';

const ROOM = 35001;
const ITERATIONS = Number(process.env.LIVEREC_KILL_ITERATIONS ?? 10);
/** One frame of the simulator's 25 fps video, plus rounding. */
const FRAME_S = 0.041;
const opt = (Value: unknown) => ({ HasValue: true, Value });

interface Hook { EventType: string; EventId: string; EventData: { RelativePath?: string; FileSize?: number } }

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

function start(dir: string, port: number): { child: ChildProcess; exit: Promise<unknown>; log: () => string } {
  const child = spawn(process.execPath, [cliEntry, 'run', dir, '--bind', `http://127.0.0.1:${port}`], {
    stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LIVEREC_LOG_LEVEL: 'info' },
  });
  let log = '';
  child.stderr!.on('data', (d) => (log = (log + d).slice(-20_000)));
  return { child, exit: new Promise((resolve) => child.on('exit', resolve)), log: () => log };
}

/** The recordings on disk (relative, forward slashes). */
const recordings = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.flv') && !f.startsWith('.')).map((f) => f.split('\\').join('/'));

/** The `duration` number of the file's onMetaData. */
function metadataDuration(path: string): number {
  const b = readFileSync(path);
  const body = b.subarray(24, 24 + b.readUIntBE(14, 3));
  return getNumber(onMetaDataMap(decodeAmf(body))!, 'duration') ?? Number.NaN;
}

/** The content's duration as ffprobe reads it: the largest decode time of any packet. */
function contentDuration(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(ffprobeBin(), ['-v', 'error', '-show_entries', 'packet=dts_time', '-of', 'csv=p=0', path], { maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`ffprobe failed on ${path}: ${stderr || err.message}`));
      const times = stdout.split('\n').map(Number).filter((n) => Number.isFinite(n));
      resolve(times.length ? Math.max(...times) : 0);
    });
  });
}

describe('kill -9 storm around file opens and closes', () => {
  let sim: Simulator;
  let running: RunningSimulator;
  let receiver: Receiver;
  let dir: string;
  const busy: ChildProcess[] = [];
  beforeAll(async () => {
    // FLV recording as a logged-in user is served: a guest would record the master playlist's HLS (guest cap, issue 47).
    sim = new Simulator({ guestQnCap: false });
    running = await sim.start();
    sim.createRoom({ roomId: ROOM, live: true, bitrateKbps: 1000 });
    receiver = await startReceiver();
    dir = mkdtempSync(join(tmpdir(), 'liverec-killstorm-'));
    // Three busy loops, kept to one core where taskset exists: the recorder still runs on a loaded machine, while the
    // test files running beside this one (the suite runs two at a time) keep a core of their own.
    const cores = availableParallelism();
    const pin = cores > 1 && spawnSync('taskset', ['-c', '0', 'true']).status === 0 ? ['taskset', '-c', String(cores - 1)] : [];
    for (let i = 0; i < 3; i++) {
      const argv = [...pin, process.execPath, '-e', 'for (;;) {}'];
      busy.push(spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' }));
    }
  });
  afterAll(async () => {
    for (const b of busy) b.kill('SIGKILL');
    await running?.close();
    await receiver?.close();
    if (dir && !process.env.LIVEREC_KILL_KEEP) rmSync(dir, { recursive: true, force: true });
  });

  it('every file gets exactly one FileClosed and true metadata', async () => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({
      version: 3,
      global: { LiveApiHost: opt(running.url), WebHookUrlsV2: opt(receiver.url), TimingStreamRetry: opt(1000) },
      rooms: [{ RoomId: opt(ROOM), AutoRecord: opt(true) }],
    }));
    const port = await freePort();
    const api = (path: string, method = 'GET') => fetch(`http://127.0.0.1:${port}${path}`, { method, signal: AbortSignal.timeout(5000) });
    /** Until the room writes a file (the API up, the stream on), or 30 s. */
    const recording = async (): Promise<boolean> => {
      for (const end = Date.now() + 30_000; Date.now() < end; await sleep(100)) {
        try {
          const r = (await (await api(`/api/room/${ROOM}`)).json()) as { recording: boolean; recordingStats: { currentFileSize: number } };
          if (r.recording && r.recordingStats.currentFileSize > 0) return true;
        } catch {
          // not up yet
        }
      }
      return false;
    };
    let kills = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const run = start(dir, port);
      // Some kills land during the start itself (recovery, the first file's open), most around a split.
      if (i % 4 === 3) await sleep(200 + Math.random() * 1500);
      else if (await recording()) {
        const before = recordings(dir).length;
        void api(`/api/room/${ROOM}/split`, 'POST').catch(() => undefined);
        if (i % 2 === 0) {
          // Kill right as the new file appears (its open), or shortly after.
          for (const end = Date.now() + 3000; recordings(dir).length === before && Date.now() < end;) await sleep(5);
          await sleep(Math.random() * 60);
        } else await sleep(Math.random() * 250);
      }
      run.child.kill('SIGKILL');
      await run.exit;
      kills++;
    }
    expect(kills).toBe(ITERATIONS);

    // A last run recovers the last kill, records a little, delivers every pending event and stops cleanly.
    const last = start(dir, port);
    const events = (): Hook[] => receiver.requests.map((r) => JSON.parse(r.body) as Hook);
    const closedOnce = (): Map<string, Set<string>> => {
      const byFile = new Map<string, Set<string>>();
      // Redelivery of one event (a kill after the send, before its "done" was journaled) keeps its EventId.
      for (const e of events()) if (e.EventType === 'FileClosed') byFile.set(e.EventData.RelativePath!, (byFile.get(e.EventData.RelativePath!) ?? new Set()).add(e.EventId));
      return byFile;
    };
    try {
      expect(await recording(), last.log()).toBe(true);
      await api(`/api/room/${ROOM}/split`, 'POST');
      for (const end = Date.now() + 30_000; Date.now() < end; await sleep(200)) {
        const closed = closedOnce();
        if (recordings(dir).filter((f) => !closed.has(f)).length <= 1) break; // the open one closes at the stop
      }
    } finally {
      last.child.kill('SIGTERM');
      await last.exit;
    }
    await sleep(500);
    const files = recordings(dir);
    expect(files.length).toBeGreaterThan(ITERATIONS / 2);
    const closed = closedOnce();
    const detail = (f: string): string => JSON.stringify(receiver.requests.filter((r) => r.body.includes('FileClosed') && r.body.includes(JSON.stringify(f))).map((r) => [r.at, JSON.parse(r.body)]), null, 1);
    for (const f of files) expect(closed.get(f)?.size ?? 0, `FileClosed events of ${f}: ${detail(f)}`).toBe(1);
    // Files removed because a kill left them empty were reported once too, and nothing is reported twice.
    for (const [f, ids] of closed) expect(ids.size, `FileClosed events of ${f}`).toBe(1);
    for (const f of files) {
      const path = join(dir, f);
      const size = events().find((e) => e.EventType === 'FileClosed' && e.EventData.RelativePath === f)!.EventData.FileSize;
      expect(size, f).toBe(statSync(path).size);
      const [meta, content] = [metadataDuration(path), await contentDuration(path)];
      expect(Math.abs(meta - content), `${f}: onMetaData ${meta} s, content ${content} s`).toBeLessThanOrEqual(FRAME_S);
    }
  }, 170_000);
});
