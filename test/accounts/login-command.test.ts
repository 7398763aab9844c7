// `liverec login <workdir>`: a QR code in the terminal, the simulator's phone scans and confirms, the account is saved
// (0600) where a running `liverec run` and the next one find it; a missing work directory is refused with exit 2.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccountStore } from '../../src/accounts/account-store.js';
import { control, startSim } from '../simulator/helpers.js';
import { runCli, startCli } from '../cli/helpers.js';

let sim: Awaited<ReturnType<typeof startSim>>;
const workDir = mkdtempSync(join(tmpdir(), 'liverec-login-'));
const runDir = mkdtempSync(join(tmpdir(), 'liverec-login-run-'));
const ROOM = 47101;

beforeAll(async () => {
  sim = await startSim([{ roomId: ROOM, name: 'login-live', title: 'login', live: true, bitrateKbps: 400 }]);
  writeFileSync(join(workDir, 'config.json'), JSON.stringify({ version: 3, global: { LiveApiHost: { HasValue: true, Value: sim.url } }, rooms: [] }));
});
afterAll(async () => {
  await sim?.close();
  rmSync(workDir, { recursive: true, force: true });
  rmSync(runDir, { recursive: true, force: true });
});

/** Two logins one after the other by QR: the terminal's flow, the simulator's phone. */
async function loginByCli(dir: string, uid: number): Promise<ReturnType<typeof startCli>> {
  const p = startCli(['login', dir]);
  const [, key] = await p.waitFor('stdout', /QR key: ([0-9a-f]{32})/);
  expect((await control(sim.url, `/_sim/qrcode/${key}/scan`, {})).status).toBe(204);
  await p.waitFor('stdout', /Scanned/);
  expect((await control(sim.url, `/_sim/qrcode/${key}/confirm`, { uid })).status).toBe(204);
  await p.waitFor('stdout', new RegExp(`Logged in as account ${uid}`));
  return p;
}

it('logs in by a terminal QR code and saves the account', async () => {
  const before = readFileSync(join(workDir, 'config.json'), 'utf8');
  const p = startCli(['login', workDir]);
  const [, key] = await p.waitFor('stdout', /QR key: ([0-9a-f]{32})/);
  // The QR code itself: block characters on several lines.
  expect(p.stdout().split('\n').filter((l) => /[█▀▄]/.test(l)).length).toBeGreaterThan(5);
  expect((await control(sim.url, `/_sim/qrcode/${key}/scan`, {})).status).toBe(204);
  await p.waitFor('stdout', /Scanned/);
  expect((await control(sim.url, `/_sim/qrcode/${key}/confirm`, { uid: 4242 })).status).toBe(204);
  await p.waitFor('stdout', /Logged in as account 4242/);
  expect((await p.exit).code).toBe(0);
  const store = new AccountStore(workDir);
  expect(statSync(store.path).mode & 0o777).toBe(0o600);
  const { accounts, problem } = store.load();
  expect(problem).toBeNull();
  expect(accounts.map((a) => [a.uid, a.name, a.source, a.state])).toEqual([[4242, 'sim-user-4242', 'qr', 'valid']]);
  expect(accounts[0]!.cookie).toMatch(/SESSDATA=/);
  expect(accounts[0]!.refreshToken).toMatch(/^[0-9a-f]{32}$/);
  // The cookie is nowhere on the terminal; config.json is untouched.
  expect(p.stdout() + p.stderr()).not.toContain(accounts[0]!.refreshToken);
  expect(readFileSync(join(workDir, 'config.json'), 'utf8')).toBe(before);
}, 60_000);

it('refuses a missing work directory with exit 2', async () => {
  const r = await runCli(['login', join(workDir, 'nope', 'deeper')]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/liverec: /);
});

it('refuses no work directory and no --cluster with exit 2', async () => {
  const r = await runCli(['login'], { LIVEREC_CLUSTER_URL: undefined });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/--cluster/);
});

it('a running liverec uses a `liverec login` made beside it within seconds, and its own saves keep that login', async () => {
  writeFileSync(join(runDir, 'config.json'), JSON.stringify({
    version: 3, global: { LiveApiHost: { HasValue: true, Value: sim.url } },
    rooms: [{ RoomId: { HasValue: true, Value: ROOM }, AutoRecord: { HasValue: true, Value: true } }],
  }));
  const run = startCli(['run', runDir, '--bind', 'http://127.0.0.1:0', '-l', 'Warning']);
  try {
    const [, api] = await run.waitFor('stdout', /Now listening on: (http:\/\/127\.0\.0\.1:\d+)/);
    type Account = { uid: number; state: string; rooms: number[] };
    const accounts = async (): Promise<Account[]> => (await fetch(`${api}/api/accounts`)).json() as Promise<Account[]>;
    expect(await accounts()).toEqual([]);
    expect((await (await loginByCli(runDir, 4343)).exit).code).toBe(0);
    // No restart: the service re-reads the file it shares with the login command, and the room takes the account.
    for (let i = 0; ; i++) {
      const list = await accounts();
      if (list.some((a) => a.uid === 4343 && a.state === 'valid' && a.rooms.includes(ROOM))) break;
      if (i > 300) throw new Error(`the running liverec never used the new login: ${JSON.stringify(list)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // A second login beside it, then a write by the service (the account's refresh through the API): both stay saved.
    expect((await (await loginByCli(runDir, 4344)).exit).code).toBe(0);
    expect((await fetch(`${api}/api/accounts/4343/refresh`, { method: 'POST' })).status).toBeLessThan(300);
    const saved = new AccountStore(runDir).load().accounts.map((a) => a.uid).sort();
    expect(saved).toEqual([4343, 4344]);
  } finally {
    run.child.kill('SIGTERM');
    await run.exit;
  }
}, 120_000);
