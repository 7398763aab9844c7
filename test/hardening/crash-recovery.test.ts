// After kill -9, the next start closes the files and sessions left open and reports them (FileClosed, SessionEnded).
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecorderEvent } from '../../src/events/types.js';
import { decodeAmf } from '../../src/flv/amf.js';
import { getNumber, onMetaDataMap } from '../../src/flv/metadata.js';
import { cliEntry } from '../../src/paths.js';
import { Simulator, type RunningSimulator } from '../../src/simulator/index.js';
import { probe } from '../support/media-tools.js';
import { sleep } from '../rooms/harness.js';
import { type Receiver, startReceiver } from '../webhook/helpers.js';

const ROOM = 34001;
const cli = cliEntry;
const opt = (Value: unknown) => ({ HasValue: true, Value });
const sid = (e: RecorderEvent): string | undefined => (e.EventData as { SessionId?: string }).SessionId;

/** A real `liverec run`; its log (stderr) is kept for failure messages. */
function start(dir: string): { child: ChildProcess; exit: Promise<unknown>; log: () => string } {
  const child = spawn(process.execPath, [cli, 'run', dir], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LIVEREC_LOG_LEVEL: 'info' } });
  let log = '';
  child.stderr!.on('data', (d) => (log = (log + d).slice(-20_000)));
  return { child, exit: new Promise((resolve) => child.on('exit', resolve)), log: () => log };
}

async function until<T>(get: () => T | undefined, timeoutMs: number, what: string, log = (): string => ''): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${log()}`);
    await sleep(200);
  }
}

describe('restart after kill -9', () => {
  let sim: Simulator;
  let running: RunningSimulator;
  let receiver: Receiver;
  let dir: string;
  beforeAll(async () => {
    // FLV recording as a logged-in user is served: a guest would record the master playlist's HLS (guest cap, issue 47).
    sim = new Simulator({ guestQnCap: false });
    running = await sim.start();
    sim.createRoom({ roomId: ROOM, live: true, bitrateKbps: 1000 });
    receiver = await startReceiver();
    dir = mkdtempSync(join(tmpdir(), 'liverec-crash-'));
  });
  afterAll(async () => {
    await running?.close();
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finalises the files left open and emits their FileClosed, then SessionEnded', async () => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({
      version: 3,
      global: { LiveApiHost: opt(running.url), WebHookUrlsV2: opt(receiver.url), TimingStreamRetry: opt(1000) },
      rooms: [{ RoomId: opt(ROOM), AutoRecord: opt(true) }],
    }));
    const events = (): RecorderEvent[] => receiver.requests.map((r) => JSON.parse(r.body) as RecorderEvent);
    const first = start(dir);
    const started = await until(() => events().find((e) => e.EventType === 'SessionStarted'), 30_000, 'SessionStarted');
    const flv = await until(() => readdirSync(dir, { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith('.flv') && statSync(join(dir, f)).size > 300_000), 30_000, 'a file');
    first.child.kill('SIGKILL');
    await first.exit;
    // A kill in the middle of a GOP's write: the tail is cut mid-tag, and the header's numbers describe a longer file.
    // (The header and onMetaData, ~113 KB with the keyframe index reserved, go out in one write: only media is cut.)
    const head = readFileSync(join(dir, flv)).subarray(0, 24);
    const mediaStart = 24 + head.readUIntBE(14, 3) + 4;
    truncateSync(join(dir, flv), mediaStart + Math.floor((statSync(join(dir, flv)).size - mediaStart) * 0.75));
    appendFileSync(join(dir, flv), Buffer.from([9, 0, 0x10, 0])); // a torn tag, as a kill mid-write leaves
    const seen = receiver.requests.length;

    const second = start(dir);
    try {
      const session = (started.EventData as { SessionId: string }).SessionId;
      const closed = await until(() => events().slice(seen).find((e) => e.EventType === 'FileClosed' && sid(e) === session), 30_000, 'FileClosed of the old file', second.log);
      const ended = await until(() => events().slice(seen).find((e) => e.EventType === 'SessionEnded' && sid(e) === session), 30_000, 'SessionEnded of the old session', second.log);
      expect((closed.EventData as { RelativePath: string }).RelativePath).toBe(flv.split('\\').join('/'));
      expect((closed.EventData as { FileSize: number }).FileSize).toBe(statSync(join(dir, flv)).size);
      const all = events();
      const at = (type: string) => all.findIndex((e) => e.EventType === type && sid(e) === session);
      expect(ended.EventType).toBe('SessionEnded');
      expect(at('FileClosed')).toBeLessThan(at('SessionEnded'));
      // The header was rewritten to the recovered length: duration and size match what FileClosed reports.
      const bytes = readFileSync(join(dir, flv));
      const meta = onMetaDataMap(decodeAmf(bytes.subarray(24, 24 + bytes.readUIntBE(14, 3))))!;
      expect(Math.abs(getNumber(meta, 'duration')! - (closed.EventData as { Duration: number }).Duration)).toBeLessThanOrEqual(0.041);
      expect(getNumber(meta, 'filesize')).toBe(statSync(join(dir, flv)).size);
      const p = await probe(join(dir, flv));
      expect(p.errors).toBe('');
      expect(p.codecs.sort()).toEqual(['aac', 'h264']);
    } finally {
      second.child.kill('SIGTERM');
      await second.exit;
    }
  }, 120_000);
});
