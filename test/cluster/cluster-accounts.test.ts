// Accounts in a cluster: one login in PostgreSQL for every node. A QR login through node A's API records on node B's
// room at the logged-in quality; a refresh the service asks for happens once cluster-wide (both nodes check every
// second) and both nodes go on with the new cookie; `liverec login --cluster` stores its login for every node; a
// node's old accounts.json is imported once; no secret in any other table, API answer or node log.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry } from '../../src/paths.js';
import { Simulator, type RunningSimulator } from '../../src/simulator/index.js';
import { openDb, type Db } from '../../src/cluster/db.js';
import { importAccountsFile, PgAccountStore } from '../../src/cluster/pg-account-store.js';
import { FAST } from '../rooms/harness.js';
import { control } from '../simulator/helpers.js';
import { startCli } from '../cli/helpers.js';
import { api, type NodeProcess, startNode, startPostgres, until } from './harness.js';

const ROOM = 32_001;
interface Account { uid: number; name: string; state: string; rooms: number[]; lastRefreshed: string | null; lastChecked: string | null }
interface RoomView { roomId: number; ownerNode: string | null; recordingSource: { qn: number } | null }
interface SimAccount { uid: number; refreshes: number; confirms: number; checks: number; validSessions: number }

describe('accounts in a cluster', () => {
  let pg: Awaited<ReturnType<typeof startPostgres>>;
  let db: Db;
  let sim: Simulator;
  let running: RunningSimulator;
  let a: NodeProcess;
  let b: NodeProcess;

  const accountsOf = async (node: NodeProcess): Promise<Account[]> => (await api(node.url, '/api/accounts')).json as Account[];
  const simAccount = async (uid: number): Promise<SimAccount | undefined> => ((await control(running.url, '/_sim/accounts')).json as SimAccount[]).find((x) => x.uid === uid);
  const validSessionsOf = (uid: number): string[] => [...sim.passport.sessions.values()].filter((s) => s.uid === uid && s.valid).map((s) => s.sessdata);
  const playCalls = () => sim.findRoom(ROOM, false)!.apiLog.filter((r) => r.path.includes('getRoomPlayInfo'));
  /** The room as a node's list shows it (the list carries ownerNode). */
  const roomOn = async (node: NodeProcess): Promise<RoomView> => ((await api(node.url, '/api/room')).json as RoomView[]).find((r) => r.roomId === ROOM)!;
  const lastPlaySession = (): string => /SESSDATA=([^;\s]+)/.exec(String(playCalls().at(-1)?.headers.cookie ?? ''))?.[1] ?? '';

  async function qrLogin(node: NodeProcess, uid: number): Promise<void> {
    const start = await api(node.url, '/api/accounts/qrcode', 'POST');
    expect(start.status).toBe(200);
    const key = (start.json as { key: string }).key;
    expect((await control(running.url, `/_sim/qrcode/${key}/scan`, {})).status).toBe(204);
    await until(async () => (await api(node.url, `/api/accounts/qrcode/${key}`)).json.state === 'scanned', 30_000, 'scanned');
    expect((await control(running.url, `/_sim/qrcode/${key}/confirm`, { uid })).status).toBe(204);
    const done = await until(async () => {
      const s = (await api(node.url, `/api/accounts/qrcode/${key}`)).json as { state: string; uid?: number };
      return s.state === 'confirmed' ? s : undefined;
    }, 30_000, 'confirmed');
    expect(done.uid).toBe(uid);
  }

  beforeAll(async () => {
    pg = await startPostgres();
    // The test's own handle: production's 3 s bound is for lease ticks; on a loaded machine this process may be
    // descheduled longer than that between sending a statement and reading its answer.
    db = openDb({ url: pg.url, timeoutMs: 30_000 });
    sim = new Simulator({ guestQnCap: true });
    running = await sim.start();
    sim.createRoom({ roomId: ROOM, live: false, guestQnCap: true });
    const file = join(tmpdir(), `liverec-cluster-accounts-${process.pid}.json`);
    // Every node checks every account each second: without the claim, two nodes would refresh one login.
    const global = { ...FAST, LiveApiHost: running.url, AccountCheckInterval: 1 };
    writeFileSync(file, JSON.stringify({ version: 3, global: Object.fromEntries(Object.entries(global).map(([k, v]) => [k, { HasValue: true, Value: v }])), rooms: [] }));
    const imported = spawnSync(process.execPath, [cliEntry, 'cluster', 'import', file, '--cluster', pg.url], { encoding: 'utf8' });
    expect(imported.stdout).toContain('imported 0 room(s)');
    // B first, so that B owns the room (one room: the node that joins later never takes it).
    b = await startNode('b', pg.url);
    await until(async () => (await api(b.url, '/api/cluster/nodes')).status === 200, 60_000, 'node b up');
    const added = await fetch(`${b.url}/api/room`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ roomId: ROOM, autoRecord: true }) });
    expect(added.status).toBeLessThan(300);
    await until(async () => (await roomOn(b))?.ownerNode === 'b', 60_000, 'room owned by b');
    a = await startNode('a', pg.url);
    await until(async () => ((await api(a.url, '/api/cluster/nodes')).json as { alive: boolean }[]).filter((n) => n.alive).length === 2, 60_000, 'two live nodes');
  }, 180_000);

  afterAll(async () => {
    for (const n of [a, b]) n?.child.kill('SIGKILL');
    await Promise.all([a, b].map((n) => n?.exited));
    await db?.end();
    await running?.close();
    await pg?.stop();
  }, 60_000);

  it("a QR login through node A's API: node B lists it and records its room at the logged-in quality", async () => {
    await qrLogin(a, 777);
    const listed = await until(async () => (await accountsOf(b)).find((x) => x.uid === 777), 30_000, 'b lists 777');
    expect([listed.name, listed.state]).toEqual(['sim-user-777', 'valid']);
    expect((await db.query('SELECT uid FROM liverec_accounts')).rows.map((r) => Number(r.uid))).toEqual([777]);
    // No accounts.json on either node: the login lives in PostgreSQL only.
    for (const n of [a, b]) expect(existsSync(join(n.workDir, '.liverec', 'accounts.json'))).toBe(false);
    sim.setLive(ROOM, true);
    const room = await until(async () => {
      const r = await roomOn(b);
      return r.recordingSource ? r : undefined;
    }, 60_000, 'b recording the room');
    expect(room.ownerNode).toBe('b');
    expect(room.recordingSource!.qn).toBe(10000);
    expect(validSessionsOf(777)).toContain(lastPlaySession());
    await until(async () => (await accountsOf(b)).find((x) => x.uid === 777)?.rooms.includes(ROOM), 30_000, 'b shows the room on 777');
  }, 120_000);

  it('a refresh the service asks for happens once cluster-wide, and both nodes go on with the new login', async () => {
    const oldSession = validSessionsOf(777)[0]!;
    expect((await control(running.url, '/_sim/accounts/777/needs-refresh', {})).status).toBe(204);
    // Both nodes asked to check at the same moment (besides their own checks each second): one refreshes, the other
    // finds the login claimed or already refreshed.
    const asked = await Promise.all([a, b].map((n) => api(n.url, '/api/accounts/777/refresh', 'POST')));
    expect(asked.map((r) => r.status)).toEqual([200, 200]);
    const refreshed = await until(async () => {
      const s = await simAccount(777);
      return s && s.confirms >= 1 ? s : undefined;
    }, 60_000, 'the refresh confirmed');
    const newSession = validSessionsOf(777)[0]!;
    expect(newSession).not.toBe(oldSession);
    // Both nodes keep checking each second; several more checks later there is still exactly one refresh.
    await until(async () => ((await simAccount(777))?.checks ?? 0) >= refreshed.checks + 6, 60_000, 'more checks after the refresh');
    for (const n of [a, b]) {
      const acc = await until(async () => (await accountsOf(n)).find((x) => x.uid === 777 && x.lastRefreshed !== null), 30_000, `${n.id} sees the refresh`);
      expect(acc.state).toBe('valid');
    }
    // A forced check on A is made with the new cookie (the old one is retired: it would read as logged out).
    const forced = await api(a.url, '/api/accounts/777/refresh', 'POST');
    expect(forced.status).toBe(200);
    expect(forced.json.state).toBe('valid');
    const after = (await simAccount(777))!;
    expect([after.refreshes, after.confirms, after.validSessions]).toEqual([1, 1, 1]);
    // B's room asks play info with the new login at its next connection; the recording goes on.
    const before = playCalls().length;
    sim.addFault(ROOM, { kind: 'stream-cut', afterMs: 0 });
    await until(async () => playCalls().length > before && lastPlaySession() === newSession, 60_000, 'play info with the new login');
    const room = await until(async () => {
      const r = await roomOn(b);
      return r.recordingSource?.qn === 10000 ? r : undefined;
    }, 60_000, 'recording at 10000 again');
    expect(room.recordingSource!.qn).toBe(10000);
  }, 180_000);

  it('`liverec login --cluster` stores the login for every node; a removal on one node reaches the others', async () => {
    const p = startCli(['login', '--cluster', pg.url]);
    const [, key] = await p.waitFor('stdout', /QR key: ([0-9a-f]{32})/, 60_000);
    expect((await control(running.url, `/_sim/qrcode/${key}/scan`, {})).status).toBe(204);
    await p.waitFor('stdout', /Scanned/, 60_000);
    expect((await control(running.url, `/_sim/qrcode/${key}/confirm`, { uid: 888 })).status).toBe(204);
    await p.waitFor('stdout', /Logged in as account 888/, 60_000);
    expect((await p.exit).code).toBe(0);
    for (const n of [a, b]) await until(async () => (await accountsOf(n)).find((x) => x.uid === 888 && x.state === 'valid'), 30_000, `${n.id} lists 888`);
    expect(p.stdout() + p.stderr()).not.toContain(validSessionsOf(888)[0]!);
    // Removed through B: A stops listing it at its next read.
    expect((await fetch(`${b.url}/api/accounts/888`, { method: 'DELETE' })).status).toBe(200);
    await until(async () => !(await accountsOf(a)).some((x) => x.uid === 888), 30_000, 'a forgets 888');
  }, 120_000);

  it("imports a joining node's accounts.json once, keeping the cluster's newer login", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'liverec-import-'));
    mkdirSync(join(dir, '.liverec'));
    const login = (uid: number, cookie: string) => ({
      uid, name: `file-${uid}`, face: '', cookie, refreshToken: 'f'.repeat(32), source: 'qr', state: 'valid', addedAt: 1, validUntil: null,
      lastRefreshed: null, lastChecked: null, lastError: null,
    });
    writeFileSync(join(dir, '.liverec', 'accounts.json'), JSON.stringify({ version: 1, accounts: [login(777, 'SESSDATA=stale-file-777'), login(999, 'SESSDATA=file-999')] }));
    const store = new PgAccountStore(db, 'test', null);
    const first = await importAccountsFile(store, dir);
    expect(first?.added).toBe(1);
    expect(existsSync(join(dir, '.liverec', 'accounts.json'))).toBe(false);
    expect(readdirSync(join(dir, '.liverec')).some((f) => f.startsWith('accounts.json.imported-'))).toBe(true);
    expect(await importAccountsFile(store, dir)).toBeNull();
    const rows = (await db.query<{ uid: string; cookie: string }>('SELECT uid, cookie FROM liverec_accounts ORDER BY uid')).rows;
    expect(rows.find((r) => r.uid === '777')!.cookie).not.toContain('stale-file-777');
    expect(rows.find((r) => r.uid === '999')!.cookie).toBe('SESSDATA=file-999');
    expect(await store.delete(999)).toBe(true);
  });

  it('a claim is held by one node at a time, and the next holder reads the row the last one wrote', async () => {
    const x = new PgAccountStore(db, 'x', null);
    const y = new PgAccountStore(db, 'y', null);
    await x.put({
      uid: 4444, name: 'claim', face: '', cookie: 'SESSDATA=first-4444', refreshToken: 'r'.repeat(32), source: 'qr', state: 'valid',
      addedAt: 1, validUntil: null, lastRefreshed: null, lastChecked: null, lastError: null,
    });
    const held = await Promise.all([x.claim(4444), y.claim(4444)]);
    expect(held.filter((h) => h !== null)).toHaveLength(1);
    const [holder, other] = held[0] ? [x, y] : [y, x];
    const mine = held[0] ?? held[1]!;
    expect(await other.claim(4444)).toBeNull();
    // The other node's finish without the claim changes nothing.
    await other.finish({ ...mine, cookie: 'SESSDATA=not-the-holder' });
    await holder.finish({ ...mine, cookie: 'SESSDATA=second-4444', lastRefreshed: 2 });
    const next = await other.claim(4444);
    expect([next?.cookie, next?.lastRefreshed]).toEqual(['SESSDATA=second-4444', 2]);
    await other.finish(next!);
    expect(await x.delete(4444)).toBe(true);
    expect(await y.claim(4444)).toBeNull();
  });

  it('keeps every cookie and token out of the other tables, the API answers and the node logs', async () => {
    const { rows } = await db.query<{ cookie: string; refresh_token: string }>('SELECT cookie, refresh_token FROM liverec_accounts');
    const secrets = new Set<string>();
    for (const r of rows) {
      secrets.add(r.refresh_token);
      for (const part of r.cookie.split(';')) {
        const v = part.split('=')[1]?.trim() ?? '';
        if (/^(SESSDATA|bili_jct)$/.test(part.split('=')[0]!.trim()) && v.length >= 8) secrets.add(v);
      }
    }
    // Retired logins too: every session and token the simulator ever issued to these accounts.
    for (const s of sim.passport.sessions.values()) if ([777, 888].includes(s.uid)) secrets.add(s.sessdata);
    expect(secrets.size).toBeGreaterThanOrEqual(5);
    const tables = (await db.query<{ t: string }>("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'")).rows.map((r) => r.t);
    expect(tables).toContain('liverec_room_status');
    const dumps: string[] = [];
    for (const t of tables.filter((x) => x !== 'liverec_accounts')) {
      dumps.push(`${t}: ${(await db.query<{ row: string }>(`SELECT t::text AS row FROM ${t} t`)).rows.map((r) => r.row).join('\n')}`);
    }
    for (const n of [a, b]) {
      for (const path of ['/api/accounts', '/api/room', `/api/room/${ROOM}`, '/api/config', '/api/cluster/nodes', '/metrics', '/api/log/fetch']) {
        dumps.push(`${n.id} ${path}: ${await (await fetch(n.url + path)).text()}`);
      }
      dumps.push(`${n.id} log: ${readFileSync(join(n.workDir, `${n.id}.log`), 'utf8')}`);
    }
    const all = dumps.join('\n');
    expect(all).toContain('sim-user-777');
    for (const s of secrets) expect(all.includes(s) ? s : null).toBeNull();
  }, 60_000);
});
