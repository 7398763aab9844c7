// /api/accounts (liverec addition): the logins rooms record with, QR login, removal and a forced check; never a secret.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { errorCode } from '../errors.js';
import type { ApiApp, ApiDeps } from './context.js';
import { ApiErrorCode, errorContent } from './errors.js';
import { sendJson } from './json.js';

const AccountSchema = z.object({
  uid: z.number().int(),
  name: z.string(),
  face: z.string().openapi({ description: 'Avatar URL' }),
  source: z.enum(['qr', 'config']).openapi({ description: 'qr: logged in here; config: the global Cookie setting' }),
  state: z.enum(['valid', 'refresh-failed', 'logged-out']),
  addedAt: z.string().openapi({ description: 'ISO 8601' }),
  validUntil: z.string().nullable().openapi({ description: 'When the login cookie expires (ISO 8601), as the service set it; null when unknown' }),
  lastRefreshed: z.string().nullable(),
  lastChecked: z.string().nullable(),
  lastError: z.string().nullable().openapi({ description: 'Why the last check or refresh failed' }),
  rooms: z.array(z.number().int()).openapi({ description: 'Rooms recording with this account now' }),
}).openapi('Account');

const QrStartSchema = z.object({
  key: z.string(), url: z.string().openapi({ description: 'What the QR code encodes (scan it with the Bilibili app)' }),
  expiresAt: z.string().openapi({ description: 'ISO 8601; the code lives 180 s' }),
}).openapi('AccountQrCode');
const QrStatusSchema = z.object({ state: z.enum(['waiting', 'scanned', 'confirmed', 'expired']), uid: z.number().int().optional() }).openapi('AccountQrState');
const Uid = z.object({ uid: z.string().regex(/^\d{1,19}$/).openapi({ param: { name: 'uid', in: 'path' }, example: '12345' }) });
const Key = z.object({ key: z.string().regex(/^[0-9a-zA-Z]{1,64}$/).openapi({ param: { name: 'key', in: 'path' } }) });

const upstream = { 502: { content: errorContent, description: 'The login service could not be reached or answered unexpectedly (-1)' } };
const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });
const tags = ['Accounts'];

const list = createRoute({ method: 'get', path: '/api/accounts', summary: 'List accounts (liverec)', tags, responses: { 200: json(z.array(AccountSchema), 'Every account, imported Cookie included') } });
const qrStart = createRoute({ method: 'post', path: '/api/accounts/qrcode', summary: 'Start a QR login (liverec)', tags, responses: { 200: json(QrStartSchema, 'A new QR login'), 429: { content: errorContent, description: 'Too many QR logins under way (-17)' }, ...upstream } });
const qrState = createRoute({ method: 'get', path: '/api/accounts/qrcode/{key}', summary: 'State of a QR login (liverec)', tags, request: { params: Key }, responses: { 200: json(QrStatusSchema, 'The state (the last one known while the login service cannot be reached)'), 404: { content: errorContent, description: 'No such QR login (-12)' } } });
const remove = createRoute({ method: 'delete', path: '/api/accounts/{uid}', summary: 'Remove an account (liverec)', tags, request: { params: Uid }, responses: { 200: json(z.object({ removed: z.number().int() }), 'Removed'), 404: { content: errorContent, description: 'No such saved account (-12)' } } });
const refresh = createRoute({ method: 'post', path: '/api/accounts/{uid}/refresh', summary: 'Check and refresh an account now (liverec)', tags, request: { params: Uid }, responses: { 200: json(AccountSchema, 'The account after the check'), 404: { content: errorContent, description: 'No such account (-12)' } } });

const notFound = (c: Context, what: string) => sendJson(c, { code: ApiErrorCode.NotFound, message: what }, 404);

export function registerAccountRoutes(app: ApiApp, deps: ApiDeps): void {
  app.openapi(list, (c) => sendJson(c, deps.accounts?.list() ?? [], 200));
  app.openapi(qrStart, async (c) => {
    if (!deps.accounts) return notFound(c, 'accounts are not available on this server') as never;
    try {
      return sendJson(c, await deps.accounts.startQr(), 200);
    } catch (err) {
      if (errorCode(err) === 'ACCOUNT_QR_BUSY') return sendJson(c, { code: ApiErrorCode.TooManyRequests, message: (err as Error).message }, 429);
      return sendJson(c, { code: ApiErrorCode.Unknown, message: `${errorCode(err)}: ${(err as Error).message}` }, 502);
    }
  });
  app.openapi(qrState, async (c) => {
    const s = await deps.accounts?.qrStatus(c.req.valid('param').key);
    return s ? sendJson(c, s, 200) : notFound(c, 'no such QR login');
  });
  app.openapi(remove, async (c) => {
    const uid = Number(c.req.valid('param').uid);
    return (await deps.accounts?.remove(uid)) ? sendJson(c, { removed: uid }, 200) : notFound(c, 'no such saved account');
  });
  app.openapi(refresh, async (c) => {
    const view = await deps.accounts?.refresh(Number(c.req.valid('param').uid));
    return view ? sendJson(c, view, 200) : notFound(c, 'no such account');
  });
}
