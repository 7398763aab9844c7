// Accounts end to end: a QR login through the API (the simulator stands in for the phone), recording as that account,
// a refresh the service asks for (confirmed, no new file), logouts moving rooms to the next account and then to
// guest with a notification, and no cookie or token in any answer, log line, event or metric. Danmaku: the
// simulator masks senders for a token issued to a guest, so the account's room records real names and a guest room
// (RecordingAccount guest) masked ones.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../rooms/harness.js';
import { type AccountsSetup, startAccounts } from './setup.js';
import { control } from '../simulator/helpers.js';
import { eventually } from '../web/setup.js';
import { filesIn } from '../danmaku/helpers.js';
import { danmuCommand } from '../../src/simulator/danmaku-messages.js';

const ROOM = 31_001;
/** Records as a guest throughout (RecordingAccount guest): the counter-test of the danmaku names. */
const GUEST_ROOM = 31_002;
let h: Harness;
let api: string;
let sim: string;
const notices: string[] = [];

const get = async <T>(path: string): Promise<T> => (await (await fetch(api + path)).json()) as T;
interface Account { uid: number; name: string; state: string; rooms: number[]; lastRefreshed: string | null }
interface SimAccount { uid: number; refreshes: number; confirms: number; validSessions: number }

async function qrLogin(uid: number): Promise<void> {
  const start = await fetch(`${api}/api/accounts/qrcode`, { method: 'POST' });
  expect(start.status).toBe(200);
  const { key, url } = (await start.json()) as { key: string; url: string };
  expect(url).toContain(key);
  expect((await get<{ state: string }>(`/api/accounts/qrcode/${key}`)).state).toBe('waiting');
  expect((await control(sim, `/_sim/qrcode/${key}/scan`, {})).status).toBe(204);
  await eventually('scanned', async () => (await get<{ state: string }>(`/api/accounts/qrcode/${key}`)).state === 'scanned');
  expect((await control(sim, `/_sim/qrcode/${key}/confirm`, { uid })).status).toBe(204);
  const done = await eventually('confirmed', async () => {
    const s = await get<{ state: string; uid?: number }>(`/api/accounts/qrcode/${key}`);
    return s.state === 'confirmed' ? s : null;
  });
  expect(done.uid).toBe(uid);
}

/** The cookie of the room's latest play-info call, as the simulator saw it. */
function lastPlayCookie(): string {
  const log = h.sim.findRoom(ROOM, false)!.apiLog.filter((r) => r.path.includes('getRoomPlayInfo'));
  return String(log.at(-1)?.headers.cookie ?? '');
}
const sessionOf = (cookie: string): string => /SESSDATA=([^;\s]+)/.exec(cookie)?.[1] ?? '';
const validSessionsOf = (uid: number): string[] => [...h.sim.passport.sessions.values()].filter((s) => s.uid === uid && s.valid).map((s) => s.sessdata);

let setup: AccountsSetup;

beforeAll(async () => {
  setup = await startAccounts(notices, (notifyUrl) => ({
    rooms: [{ roomId: ROOM, live: true, guestQnCap: true }, { roomId: GUEST_ROOM, live: true }], record: [GUEST_ROOM], api: true,
    roomConfig: { [GUEST_ROOM]: { RecordingAccount: 'guest' } },
    sim: { guestQnCap: true, guestDanmakuMask: true },
    global: { AccountCheckInterval: 1, NotifyUrls: notifyUrl, RecordDanmaku: true, RecordDanmakuFlushInterval: 1 },
  }));
  ({ h, api, sim } = setup);
});

afterAll(() => setup?.close());

describe('accounts', () => {
  it('logs in by QR code and records with the account', async () => {
    await qrLogin(777);
    const accounts = await get<Account[]>('/api/accounts');
    expect(accounts.map((a) => [a.uid, a.name, a.state])).toEqual([[777, 'sim-user-777', 'valid']]);
    const file = join(h.workDir, '.liverec', 'accounts.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(validSessionsOf(777)[0]);
    await fetch(`${api}/api/room`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ roomId: ROOM, autoRecord: true }) });
    await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === ROOM, 60_000);
    expect(validSessionsOf(777)).toContain(sessionOf(lastPlayCookie()));
    const room = await eventually('recording at 10000', async () => {
      const r = await get<{ recordingSource: { qn: number } | null }>(`/api/room/${ROOM}`);
      return r.recordingSource ? r : null;
    });
    expect(room.recordingSource!.qn).toBe(10000);
    expect((await get<Account[]>('/api/accounts'))[0]!.rooms).toEqual([ROOM]);
  });

  it("records the account's danmaku with user names, and a guest's with the service's masked names", async () => {
    // Each room's danmaku socket, by who its token was issued to (the simulator masks a guest's senders).
    const socket = (id: number, guest: boolean): boolean => [...h.sim.findRoom(id, false)!.danmaku].some((p) => p.guest === guest);
    await eventually('the account room on a logged-in token, the guest room on a guest one', () => socket(ROOM, false) && socket(GUEST_ROOM, true), 60_000);
    expect(socket(ROOM, true)).toBe(false);
    for (const id of [ROOM, GUEST_ROOM]) h.sim.push(id, [danmuCommand({ text: `hello ${id}`, uid: 4321, uname: 'viewer-4321' })]);
    const xmlOf = (id: number): string => filesIn(h.workDir, '.xml').filter((f) => f.includes(String(id))).map((f) => readFileSync(f, 'utf8')).join('');
    const line = (id: number): string => xmlOf(id).split('\n').find((l) => l.includes(`>hello ${id}<`)) ?? '';
    await eventually('both comments written', () => line(ROOM) !== '' && line(GUEST_ROOM) !== '', 30_000);
    expect(line(ROOM)).toContain('user="viewer-4321"');
    expect(line(GUEST_ROOM)).toContain('user="v***"');
    expect(xmlOf(GUEST_ROOM)).not.toContain('viewer-4321');
    expect(h.sim.findRoom(GUEST_ROOM, false)!.counters.loginNotices).toBeGreaterThan(0);
    expect(h.sim.findRoom(ROOM, false)!.counters.loginNotices).toBe(0);
  });

  it('refreshes a login the service asks to refresh, confirms the old token, and keeps the file', async () => {
    const opened = h.events.filter((e) => e.EventType === 'FileOpening').length;
    const before = validSessionsOf(777);
    expect((await control(sim, '/_sim/accounts/777/needs-refresh', {})).status).toBe(204);
    const s = await eventually('refresh confirmed', async () => (await control(sim, '/_sim/accounts')).json.find((a: SimAccount) => a.uid === 777 && a.confirms === 1) as SimAccount | undefined, 30_000);
    expect(s.refreshes).toBe(1);
    expect(s.validSessions).toBe(1);
    expect(validSessionsOf(777)).not.toEqual(before);
    const acc = (await get<Account[]>('/api/accounts')).find((a) => a.uid === 777)!;
    expect(acc.lastRefreshed).not.toBeNull();
    expect(acc.state).toBe('valid');
    expect(h.events.filter((e) => e.EventType === 'FileOpening').length).toBe(opened);
    expect(h.events.filter((e) => e.EventType === 'FileClosed').length).toBe(0);
  });

  it('moves a room to the next account when one logs out, then to guest with a notification', async () => {
    await qrLogin(888);
    expect((await control(sim, '/_sim/accounts/777/logout', {})).status).toBe(204);
    await eventually('room on 888', async () => (await get<Account[]>('/api/accounts')).find((a) => a.uid === 888)?.rooms.includes(ROOM));
    expect((await get<Account[]>('/api/accounts')).find((a) => a.uid === 777)!.state).toBe('logged-out');
    expect((await control(sim, '/_sim/accounts/888/logout', {})).status).toBe(204);
    await eventually('both logged out', async () => (await get<Account[]>('/api/accounts')).every((a) => a.state === 'logged-out' && a.rooms.length === 0));
    await eventually('a notification that recording falls back to guest', () => notices.some((n) => n.includes('888') && n.includes('guest')));
  });

  it('shows no cookie or token value in any answer, log, event or metric', async () => {
    const secrets = h.service.accounts.secrets();
    expect(secrets.length).toBeGreaterThan(4);
    const surfaces = await Promise.all(['/api/accounts', '/api/room', `/api/room/${ROOM}`, '/api/config', '/api/jobs', '/metrics', '/api/log/fetch'].map(async (p) => `${p}: ${await (await fetch(api + p)).text()}`));
    const gql = await fetch(`${api}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ rooms { roomConfig { roomId } } }' }) });
    surfaces.push(await gql.text(), JSON.stringify(h.events), notices.join('\n'));
    for (const text of surfaces) for (const s of secrets) expect(text.includes(s), `a secret in ${text.slice(0, 40)}`).toBe(false);
  });
});
