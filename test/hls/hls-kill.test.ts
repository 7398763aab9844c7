// kill -9 of a recorder process mid-fMP4: the .mp4 on disk plays (no repair step) up to its last whole fragment.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxes, type BoxRef } from '../../src/hls/mp4-boxes.js';
import { cliEntry } from '../../src/paths.js';
import { Simulator, type RunningSimulator } from '../../src/simulator/index.js';
import { sleep } from '../rooms/harness.js';
import { decode } from './helpers.js';

const cli = cliEntry;
const ROOM = 23301;
/** The track id of the `vide` handler in the file's moov. */
function videoTrackId(buf: Buffer, top: BoxRef[]): number {
  const moov = top.find((b) => b.type === 'moov')!;
  for (const trak of boxes(buf, moov.body, moov.end).filter((b) => b.type === 'trak')) {
    const inner = boxes(buf, trak.body, trak.end);
    const tkhd = inner.find((b) => b.type === 'tkhd')!;
    const mdia = inner.find((b) => b.type === 'mdia')!;
    const hdlr = boxes(buf, mdia.body, mdia.end).find((b) => b.type === 'hdlr')!;
    if (buf.toString('latin1', hdlr.body + 8, hdlr.body + 12) === 'vide') return buf.readUInt32BE(tkhd.body + (buf[tkhd.body] === 1 ? 20 : 12));
  }
  throw new Error('no video track');
}

/** Samples of `trackId` that one moof's trun boxes declare. */
function videoSamples(buf: Buffer, moof: BoxRef, trackId: number): number {
  let n = 0;
  for (const traf of boxes(buf, moof.body, moof.end).filter((b) => b.type === 'traf')) {
    const inner = boxes(buf, traf.body, traf.end);
    const tfhd = inner.find((b) => b.type === 'tfhd')!;
    if (buf.readUInt32BE(tfhd.body + 4) !== trackId) continue;
    for (const trun of inner.filter((b) => b.type === 'trun')) n += buf.readUInt32BE(trun.body + 4);
  }
  return n;
}

const mp4Files = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mp4')).map((f) => join(dir, f));

describe('kill -9 while recording fMP4', () => {
  let sim: Simulator;
  let running: RunningSimulator;
  beforeAll(async () => {
    sim = new Simulator();
    running = await sim.start();
    sim.createRoom({ roomId: ROOM, live: true, formats: ['fmp4'] });
  });
  afterAll(() => running?.close());

  it('leaves a file that decodes cleanly through its last whole fragment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'liverec-hls-kill-'));
    // A slow segment keeps one fragment half-received when the process dies.
    const child = spawn(process.execPath, [cli, 'portable', dir, String(ROOM), '--live-api-host', running.url],
      { stdio: 'ignore', env: { ...process.env, LIVEREC_LOG_LEVEL: 'warn' } });
    const exit = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (mp4Files(dir).length === 0 || statSync(mp4Files(dir)[0]!).size < 200_000)) await sleep(200);
    sim.addFault(ROOM, { kind: 'slow-segment', count: 1, delayMs: 8000 });
    await sleep(2500); // the next segment is half received now
    child.kill('SIGKILL');
    expect(await exit).toBe('SIGKILL');
    const [file] = mp4Files(dir);
    expect(file).toBeDefined();
    // Whole fragments = moof+mdat pairs that end inside the file; the half-received one is behind a free box.
    const top = boxes(readFileSync(file!));
    const buf = readFileSync(file!);
    const wholeMoofs = top.filter((b) => b.type === 'moof').filter((b) => top.some((m) => m.type === 'mdat' && m.start === b.end));
    expect(wholeMoofs.length).toBeGreaterThan(3);
    const d = await decode(file!);
    expect(d.codecs).toEqual(['aac', 'h264']);
    // Fragments hold a varying number of frames (the service cuts four per 1-s segment): count the video samples
    // their trun boxes declare.
    expect(d.videoFrames).toBe(wholeMoofs.reduce((n, moof) => n + videoSamples(buf, moof, videoTrackId(buf, top)), 0));
    // The torn segment is either not on disk at all (a segment is staged until 256 KiB or its end) or a free box
    // plus an mdat nothing points to: after the last whole fragment there is nothing else, and it decodes without
    // a single error.
    const lastWhole = Math.max(...top.filter((b) => b.type === 'mdat' && top.some((m) => m.type === 'moof' && m.end === b.start)).map((b) => b.end));
    expect(top.filter((b) => b.start >= lastWhole).every((b) => b.type === 'free' || b.type === 'mdat')).toBe(true);
    expect(d.errors).toBe('');
  });
});
