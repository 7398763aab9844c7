// Account invariants of the model test: the API lists the accounts as the model has them, showing only what it may,
// and no cookie or token value the simulator ever issued reaches REST, GraphQL, SSE, webhooks or liverec's logs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvariantError } from './invariants.js';
import type { Model } from './model.js';
import type { RealSystem } from './real-system.js';

/** The fields an account may show (docs/accounts.md): uid, name, avatar, source, state, dates, rooms. */
const SHOWN = ['uid', 'name', 'face', 'source', 'state', 'addedAt', 'validUntil', 'lastRefreshed', 'lastChecked', 'lastError', 'rooms'];

export async function checkAccounts(m: Model, r: RealSystem): Promise<void> {
  const res = await r.api('GET', '/api/accounts');
  if (res.status !== 200) throw new InvariantError(`GET /api/accounts answered ${res.status}`);
  const list = res.json as Record<string, unknown>[];
  const bad: string[] = [];
  const got = new Map(list.map((a) => [a.uid as number, a]));
  for (const [uid, state] of m.accounts) {
    const a = got.get(uid);
    if (!a) bad.push(`account ${uid} (${state} in the model) is not listed`);
    else if (a.state !== state && !(state === 'valid' && a.state === 'refresh-failed')) bad.push(`account ${uid}: ${String(a.state)}, model ${state}`);
    else if (state === 'logged-out' && (a.rooms as number[]).length > 0) bad.push(`logged-out account ${uid} still has rooms ${JSON.stringify(a.rooms)}`);
  }
  for (const uid of got.keys()) if (!m.accounts.has(uid)) bad.push(`account ${uid} is listed, the model has none such`);
  for (const a of list) for (const k of Object.keys(a)) if (!SHOWN.includes(k)) bad.push(`account ${String(a.uid)} shows the field ${k}`);
  if (bad.length) throw new InvariantError(bad.join('\n'));
}

/** Every cookie and token value the simulator issued (SESSDATA, bili_jct, refresh tokens), live or retired. */
function secrets(r: RealSystem): string[] {
  return [...r.sim.passport.sessions.values()].flatMap((s) => [s.sessdata, s.biliJct, s.refreshToken]).filter((v) => v.length >= 8);
}

/** What liverec wrote to its log files (the work directory's logs/). */
function logText(dir: string): string {
  const logs = join(dir, 'logs');
  if (!existsSync(logs)) return '';
  return readdirSync(logs, { recursive: true, encoding: 'utf8' }).map((f) => {
    try {
      return readFileSync(join(logs, f), 'utf8');
    } catch {
      return ''; // a folder, or a file rotated away meanwhile
    }
  }).join('\n');
}

export async function noSecrets(m: Model, r: RealSystem): Promise<void> {
  const all = secrets(r);
  if (all.length === 0) return;
  const texts: [string, string][] = [];
  for (const path of ['/api/accounts', '/api/room', '/api/config/global', '/metrics', '/api/log/fetch']) texts.push([path, JSON.stringify((await r.api('GET', path)).json)]);
  texts.push(['GraphQL', JSON.stringify((await r.api('POST', '/graphql', { query: '{ rooms { objectId recording streaming roomConfig { roomId autoRecord } } }' })).json)]);
  texts.push(['webhooks', JSON.stringify(r.hooks.events.slice(m.hooksScanned))]);
  m.hooksScanned = r.hooks.events.length;
  texts.push(['logs', logText(r.dir)], ['stdout/stderr', `${r.proc?.stdout ?? ''}\n${r.proc?.stderr ?? ''}`]);
  const bad: string[] = [];
  for (const [where, text] of texts) for (const s of all) if (text.includes(s)) bad.push(`a secret (${s.slice(0, 4)}…) in ${where}`);
  // The event stream checks each frame as it comes (sse-view.ts), against the secrets known then.
  bad.push(...(r.sse?.leaks ?? []), ...r.sseLeaks);
  if (bad.length) throw new InvariantError(bad.join('\n'));
}
