// `liverec login <workdir>`: a QR code in the terminal, the simulator's phone scans and confirms, the account is saved
// (0600) where the next `liverec run` finds it; a missing work directory is refused with exit 2.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccountStore } from '../../src/accounts/account-store.js';
import { control, startSim } from '../simulator/helpers.js';
import { runCli, startCli } from '../cli/helpers.js';

let sim: Awaited<ReturnType<typeof startSim>>;
const workDir = mkdtempSync(join(tmpdir(), 'liverec-login-'));

beforeAll(async () => {
  sim = await startSim();
  writeFileSync(join(workDir, 'config.json'), JSON.stringify({ version: 3, global: { LiveApiHost: { HasValue: true, Value: sim.url } }, rooms: [] }));
});
afterAll(async () => {
  await sim?.close();
  rmSync(workDir, { recursive: true, force: true });
});

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
