// A room's own answer that shows a logged-out state makes liverec check that account at once, not at its daily turn:
// play info's guest cap although the login cookie was sent, or LOG_IN_NOTICE on a danmaku connection whose token came
// with one. A logout moves the room within that one check, to the next account (one log line), then to guest with a
// notification. No manual refresh; AccountCheckInterval is a day.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../rooms/harness.js';
import { type AccountsSetup, startAccounts } from './setup.js';
import { control } from '../simulator/helpers.js';
import { eventually } from '../web/setup.js';

const ROOM = 31_101;
let h: Harness;
let api: string;
let sim: string;
const notices: string[] = [];

const get = async <T>(path: string): Promise<T> => (await (await fetch(api + path)).json()) as T;
interface Account { uid: number; state: string; rooms: number[] }
interface SimAccount { uid: number; checks: number }

async function qrLogin(uid: number): Promise<void> {
  const { key } = (await (await fetch(`${api}/api/accounts/qrcode`, { method: 'POST' })).json()) as { key: string };
  expect((await control(sim, `/_sim/qrcode/${key}/scan`, {})).status).toBe(204);
  expect((await control(sim, `/_sim/qrcode/${key}/confirm`, { uid })).status).toBe(204);
  await eventually(`account ${uid} logged in`, async () => (await get<{ state: string }>(`/api/accounts/qrcode/${key}`)).state === 'confirmed');
}

const checksOf = async (uid: number): Promise<number> => ((await control(sim, '/_sim/accounts')).json as SimAccount[]).find((a) => a.uid === uid)?.checks ?? 0;
const accountOf = async (uid: number): Promise<Account> => (await get<Account[]>('/api/accounts')).find((a) => a.uid === uid)!;
const playCalls = (): number => h.sim.findRoom(ROOM, false)!.apiLog.filter((r) => r.path.includes('getRoomPlayInfo')).length;
const logLines = async (text: string): Promise<number> =>
  (await get<{ logs: { '@mt': string }[] }>('/api/log/fetch')).logs.filter((l) => l['@mt'].includes(text)).length;

/** Drops the room's danmaku sockets: liverec asks a new token with the cookie the room has now; a guest's gets LOG_IN_NOTICE. */
async function dropDanmaku(): Promise<void> {
  const room = h.sim.findRoom(ROOM, false)!;
  const before = room.counters.loginNotices;
  h.sim.addFault(ROOM, { kind: 'danmaku-drop' });
  await eventually('a guest token and its notice', () => room.counters.loginNotices > before, 60_000);
}

/** Ends the room's stream connection: liverec asks play info again, with the cookie the room has now. */
async function cutStream(): Promise<void> {
  const before = playCalls();
  h.sim.addFault(ROOM, { kind: 'stream-cut', afterMs: 0 });
  await eventually('play info asked again', () => playCalls() > before, 60_000);
}

let setup: AccountsSetup;

beforeAll(async () => {
  setup = await startAccounts(notices, (notifyUrl) => ({
    rooms: [{ roomId: ROOM, live: true, guestQnCap: true }], record: [], api: true, sim: { guestQnCap: true, guestDanmakuMask: true },
    // The daily check stays a day away: only the room's own answers can make a check here.
    global: { AccountCheckInterval: 86_400, NotifyUrls: notifyUrl },
  }));
  ({ h, api, sim } = setup);
});

afterAll(() => setup?.close());

describe("a room's logged-out answer", () => {
  it('records with the first account', async () => {
    await qrLogin(777);
    await fetch(`${api}/api/room`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ roomId: ROOM, autoRecord: true }) });
    await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === ROOM, 60_000);
    expect((await accountOf(777)).rooms).toEqual([ROOM]);
    await qrLogin(888);
    expect((await accountOf(888)).rooms).toEqual([]);
  });

  it('checks the account at once when play info answers its login as a guest, and moves the room to the next account', async () => {
    const checks = await checksOf(777);
    expect((await control(sim, '/_sim/accounts/777/logout', {})).status).toBe(204);
    await cutStream();
    await eventually('room on 888', async () => (await accountOf(888)).rooms.includes(ROOM), 60_000);
    expect((await accountOf(777)).state).toBe('logged-out');
    expect(await checksOf(777)).toBe(checks + 1); // one check, made by the answer
    expect(await logLines('records with account 888')).toBe(1);
    expect(await logLines('checking the login now')).toBe(1);
    expect(notices.some((n) => n.includes('777') && n.includes('another account'))).toBe(true);
  });

  it('checks the account at once on LOG_IN_NOTICE to its login, and falls back to guest with a notification', async () => {
    const checks = await checksOf(888);
    expect((await control(sim, '/_sim/accounts/888/logout', {})).status).toBe(204);
    await dropDanmaku();
    await eventually('both logged out, no room on any', async () => (await get<Account[]>('/api/accounts')).every((a) => a.state === 'logged-out' && a.rooms.length === 0), 60_000);
    expect(await checksOf(888)).toBe(checks + 1); // one check, made by the notice
    await eventually('a notification that recording falls back to guest', () => notices.some((n) => n.includes('888') && n.includes('guest')));
    // As a guest, the notice is no news: no further check of anyone.
    const all = (await checksOf(777)) + (await checksOf(888));
    await dropDanmaku();
    expect((await checksOf(777)) + (await checksOf(888))).toBe(all);
    expect(await logLines('checking the login now')).toBe(2);
  });

  it('shows no cookie or token value in the log, events, notifications or metrics of these checks', async () => {
    const secrets = h.service.accounts.secrets();
    expect(secrets.length).toBeGreaterThan(4);
    const surfaces = await Promise.all(['/api/accounts', `/api/room/${ROOM}`, '/metrics', '/api/log/fetch'].map(async (p) => (await fetch(api + p)).text()));
    surfaces.push(JSON.stringify(h.events), notices.join('\n'));
    for (const text of surfaces) for (const secret of secrets) expect(text.includes(secret)).toBe(false);
  });
});
