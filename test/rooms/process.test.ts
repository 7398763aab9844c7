// The recorder as a real process: kill -9 leaves readable files; bad configs are refused untouched; SIGTERM stops cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry } from '../../src/paths.js';
import { Simulator, type RunningSimulator } from '../../src/simulator/index.js';
import { probe } from '../support/media-tools.js';
import { sleep } from './harness.js';

const cli = cliEntry;
const flvFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.flv')).map((f) => join(dir, f));

function run(args: string[]): { child: ChildProcess; exit: Promise<{ code: number | null; signal: string | null; stderr: string }> } {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LIVEREC_LOG_LEVEL: 'warn' } });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.resume();
  const exit = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  return { child, exit };
}

describe('the recorder process', () => {
  let sim: Simulator;
  let running: RunningSimulator;
  beforeAll(async () => {
    sim = new Simulator({ guestQnCap: false }); // FLV at the asked qn: these tests are about the process, not a guest's quality
    running = await sim.start();
    for (const roomId of [24001, 24002, 24003]) sim.createRoom({ roomId, name: `p-${roomId}`, live: true, bitrateKbps: 1500 });
  });
  afterAll(() => running?.close());

  it('kill -9 mid-recording leaves every file readable by ffprobe', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'liverec-kill-'));
    const { child, exit } = run(['portable', dir, '24001', '24002', '--live-api-host', running.url]);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && (flvFiles(dir).length < 2 || flvFiles(dir).some((f) => statSync(f).size < 150_000))) await sleep(200);
    await sleep(1234); // land somewhere inside a GOP
    child.kill('SIGKILL');
    expect((await exit).signal).toBe('SIGKILL');
    const files = flvFiles(dir);
    expect(files.length).toBe(2);
    for (const f of files) {
      const p = await probe(f);
      expect(p.errors).toBe('');
      expect(p.codecs.sort()).toEqual(['aac', 'h264']);
      expect(p.duration).toBeGreaterThan(1);
    }
  });

  it('refuses a corrupt or mistyped config.json with a clear error and leaves it byte-identical', async () => {
    for (const text of ['{"version":3,"global":{"RecordMode":', '{"version":3,"rooms":[{"RoomId":{"HasValue":true,"Value":"12"}}]}']) {
      const dir = mkdtempSync(join(tmpdir(), 'liverec-badcfg-'));
      writeFileSync(join(dir, 'config.json'), text);
      const { code, stderr } = await run(['run', dir]).exit;
      expect(code).not.toBe(0);
      expect(stderr).toMatch(/config\.json/);
      expect(stderr).toMatch(/JSON|rooms\.0\.RoomId/);
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(text);
      expect(readdirSync(dir)).toEqual(['config.json']);
    }
  });

  it('runs a config.json written by brec 2.x and stops on SIGTERM within 5 s with files closed and the unchanged config left as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'liverec-run-'));
    const brec = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/config/brec-2.11-config.json'), 'utf8'));
    brec.global.LiveApiHost = { HasValue: true, Value: running.url };
    brec.global.RecordMode = { HasValue: true, Value: 0 };
    brec.global.FileNameRecordTemplate = { HasValue: false };
    brec.rooms = [{ RoomId: { HasValue: true, Value: 24003 }, AutoRecord: { HasValue: true, Value: true } }];
    writeFileSync(join(dir, 'config.json'), JSON.stringify(brec));
    copyFileSync(join(dir, 'config.json'), join(dir, 'original.json'));
    const { child, exit } = run(['run', dir, '--bind', '0']);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !flvFiles(dir).some((f) => statSync(f).size > 100_000)) await sleep(200);
    const t0 = Date.now();
    child.kill('SIGTERM');
    const { code } = await exit;
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    const [file] = flvFiles(dir);
    const p = await probe(file!);
    expect(p.errors).toBe('');
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(saved.version).toBe(3);
    expect(saved.rooms[0].RoomId.Value).toBe(24003);
    expect(saved.global.WebHookUrlsV2.Value).toContain('/a');
    // Nothing changed during the run: the user's file is left as it was (no rewrite, no backup; issue 51).
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(readFileSync(join(dir, 'original.json'), 'utf8'));
    expect(readdirSync(dir)).not.toContain('config.backup.json');
  });
});
