// The simulator's stand-in for the phone and the account's owner: scan and confirm a QR login, ask a refresh, log out.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJson, sendJson } from '../http-util.js';
import { SIM_QR_TTL_MS, type PassportState } from './passport-state.js';

/**
 * POST /_sim/qrcode/{key}/scan                 → 204 (the app scanned it: poll answers 86090)
 * POST /_sim/qrcode/{key}/confirm  {uid}       → 204 (the app confirmed: the next poll logs in)
 * POST /_sim/accounts/{uid}/needs-refresh      → 204 (cookie/info answers refresh: true)
 * POST /_sim/accounts/{uid}/logout             → 204 (every session of the account is retired)
 * GET  /_sim/accounts                          → [{uid, uname, needsRefresh, refreshes, confirms, checks, validSessions}]
 * Returns false for any other path.
 */
export async function handlePassportControl(p: PassportState, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  if (req.method === 'GET' && path === '/_sim/accounts') {
    const valid = (uid: number): number => [...p.sessions.values()].filter((s) => s.uid === uid && s.valid).length;
    sendJson(res, 200, [...p.accounts.values()].map((a) => ({ ...a, validSessions: valid(a.uid) })));
    return true;
  }
  const qr = /^\/_sim\/qrcode\/([0-9a-f]{32})\/(scan|confirm)$/.exec(path);
  if (qr && req.method === 'POST') {
    const q = p.qr.get(qr[1]!);
    if (!q || q.state === 'used' || Date.now() - q.createdAt > SIM_QR_TTL_MS) return (sendJson(res, 404, { error: 'no such QR key, or it expired' }), true);
    if (qr[2] === 'scan') q.state = 'scanned';
    else {
      const body = (await readJson(req).catch(() => ({}))) as { uid?: unknown; uname?: unknown };
      const uid = Number(body.uid);
      if (!Number.isSafeInteger(uid) || uid <= 0) return (sendJson(res, 400, { error: 'uid: a positive integer is required' }), true);
      const account = p.account(uid);
      if (typeof body.uname === 'string' && body.uname) account.uname = body.uname;
      Object.assign(q, { state: 'confirmed', uid });
    }
    res.writeHead(204).end();
    return true;
  }
  const acc = /^\/_sim\/accounts\/(\d+)\/(needs-refresh|logout)$/.exec(path);
  if (acc && req.method === 'POST') {
    const a = p.accounts.get(Number(acc[1]));
    if (!a) return (sendJson(res, 404, { error: 'no such account' }), true);
    if (acc[2] === 'needs-refresh') a.needsRefresh = true;
    else p.logout(a.uid);
    res.writeHead(204).end();
    return true;
  }
  return false;
}
