// A full disk (a 1 MiB tmpfs): liverec starts, API writes fail with 507 JSON and change nothing, config.json stays intact.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { initLogger } from '../../src/log/logger.js';
import { startService, type Service } from '../../src/service.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-full-'));
let mounted = false;
let mountError = '';
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' });
  mounted = true;
} catch (err) {
  mountError = String((err as { stderr?: Buffer }).stderr ?? err).trim();
}

/** Fills the file system: one big file, then small ones until not even a page is left. */
function fill(): void {
  try {
    writeFileSync(join(dir, 'filler.bin'), Buffer.alloc(4 * 1024 * 1024));
  } catch {
    // ENOSPC: the file holds what fitted
  }
  for (let i = 0; i < 1000; i++) {
    try {
      writeFileSync(join(dir, `filler-${i}.bin`), Buffer.alloc(4096));
    } catch {
      break;
    }
  }
}

let service: Service;
let url = '';
const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
  const res = await fetch(url + path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
};

beforeAll(async () => {
  if (!mounted) return;
  initLogger({ level: 'silent' });
  const config = ConfigStore.load(dir);
  config.global.LiveApiHost = 'http://127.0.0.1:9';
  config.addRoom(1001, false);
  config.save();
  fill();
  service = await startService({ workDir: dir, config, api: { bind: 'http://127.0.0.1:0', env: {} } });
  url = service.api!.url;
}, 60_000);

afterAll(async () => {
  await service?.close();
  if (mounted) execFileSync('umount', ['-l', dir]); // lazy: a half-started service may still hold a file
  rmSync(dir, { recursive: true, force: true });
});

const title = mounted ? 'starts on a full disk; every API write answers 507 and changes nothing' : `SKIPPED, cannot mount a tmpfs (needs root): ${mountError}`;
it.skipIf(!mounted)(title, async () => {
  const configBefore = readFileSync(join(dir, 'config.json'), 'utf8');
  const globalBefore = (await call('GET', '/api/config/global')).json;

  const g = await call('POST', '/api/config/global', { optionalTimingCheckInterval: { hasValue: true, value: 123 } });
  expect(g.status).toBe(507);
  expect(g.json).toMatchObject({ code: -18, message: expect.stringContaining('not applied') });
  expect((await call('GET', '/api/config/global')).json).toEqual(globalBefore);
  expect(service.recorder.config.effective('TimingCheckInterval')).toBe(600);

  const add = await call('POST', '/api/room', { roomId: 777, autoRecord: true });
  expect(add.status).toBe(507);
  expect(add.json.code).toBe(-18);
  expect((await call('GET', '/api/room')).json.map((r: { roomId: number }) => r.roomId)).toEqual([1001]);

  const rc = await call('POST', '/api/room/1001/config', { autoRecord: true, optionalRecordMode: { hasValue: true, value: 1 } });
  expect(rc.status).toBe(507);
  expect((await call('GET', '/api/room/1001/config')).json).toMatchObject({ autoRecord: false, optionalRecordMode: { hasValue: false } });

  const del = await call('DELETE', '/api/room/1001');
  expect(del.status).toBe(507);
  expect((await call('GET', '/api/room/1001')).status).toBe(200);

  expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(configBefore);
  expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  expect(readdirSync(join(dir, '.liverec')).filter((f) => f.endsWith('.tmp'))).toEqual([]);

  // Space is back: the same writes succeed and are saved.
  for (const f of readdirSync(dir).filter((n) => n.startsWith('filler'))) rmSync(join(dir, f));
  expect((await call('POST', '/api/config/global', { optionalTimingCheckInterval: { hasValue: true, value: 123 } })).status).toBe(200);
  expect((await call('POST', '/api/room', { roomId: 777 })).status).toBe(200);
  const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  expect(saved.global.TimingCheckInterval).toEqual({ HasValue: true, Value: 123 });
  expect(saved.rooms.map((r: { RoomId: { Value: number } }) => r.RoomId.Value)).toEqual([1001, 777]);
});
