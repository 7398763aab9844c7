// brec's SDK (bililive-rec-sdk.js, axios 1.7) sends its room actions as bodiless form-typed POSTs: answered 200 like
// brec, while the same requests from a foreign Origin (or marked cross-site by the browser) are refused with 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startFixture, type ApiFixture } from '../api/fixture.js';

const ROOM = 1001;
/** The headers axios 1.7 sends for `post(url)` without data, as the SDK's room commands do. */
const SDK_HEADERS = {
  accept: 'application/json, text/plain, */*',
  'content-type': 'application/x-www-form-urlencoded',
  'content-length': '0',
  'user-agent': 'axios/1.7.9',
  'accept-encoding': 'gzip, compress, deflate, br',
};
const ACTIONS = ['start', 'stop', 'split', 'refresh'];

/** The room's flag as its thread reports it (the answer does not wait for the thread). */
async function flagBecomes(fx: ApiFixture, value: boolean): Promise<void> {
  const room = fx.recorder.findRoom(ROOM)!;
  for (const end = Date.now() + 20_000; room.state.autoRecordForThisSession !== value && Date.now() < end;) await new Promise((r) => setTimeout(r, 25));
  expect(room.state.autoRecordForThisSession).toBe(value);
}

describe.each([false, true])("brec's SDK requests (auth %s)", (auth) => {
  let fx: ApiFixture;
  const authHeader: Record<string, string> = auth ? { authorization: `Basic ${Buffer.from('admin:pw').toString('base64')}` } : {};
  beforeAll(async () => {
    fx = await startFixture({ rooms: [{ roomId: ROOM, autoRecord: false }], ...(auth ? { basicUser: 'admin', basicPass: 'pw' } : {}) });
  });
  afterAll(() => fx.close());

  it('bodiless form-typed POSTs (and curl -X POST / curl -d "") get 200 and act', async () => {
    for (const action of ACTIONS) {
      const res = await rawRequest(fx.url, 'POST', `/api/room/${ROOM}/${action}`, { ...SDK_HEADERS, ...authHeader });
      expect(res.status, `${action}: ${res.body.toString()}`).toBe(200);
      expect(res.headers['content-type']).toContain('application/json');
    }
    await rawRequest(fx.url, 'POST', `/api/room/${ROOM}/start`, { ...SDK_HEADERS, ...authHeader });
    await flagBecomes(fx, true);
    // curl -X POST (no type, no length) and curl -d '' (form type, length 0).
    const bare = await rawRequest(fx.url, 'POST', `/api/room/${ROOM}/stop`, { accept: '*/*', ...authHeader });
    expect(bare.status).toBe(200);
    await flagBecomes(fx, false);
    const curlD = await rawRequest(fx.url, 'POST', `/api/room/${ROOM}/start`, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0', ...authHeader });
    expect(curlD.status).toBe(200);
    await flagBecomes(fx, true);
  });

  it('the same requests from a foreign Origin, or marked cross-site, get 403 and change nothing', async () => {
    await rawRequest(fx.url, 'POST', `/api/room/${ROOM}/stop`, { ...SDK_HEADERS, ...authHeader });
    await flagBecomes(fx, false);
    for (const action of ACTIONS) {
      for (const extra of [{ origin: 'http://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
        const res = await rawRequest(fx.url, 'POST', `/api/room/${ROOM}/${action}`, { ...SDK_HEADERS, ...authHeader, ...extra });
        expect(res.status, `${action} ${JSON.stringify(extra)}`).toBe(403);
        expect(JSON.parse(res.body.toString())).toMatchObject({ code: -16 });
      }
    }
    // A refused start would have reached the thread by now, as the allowed ones above did.
    await new Promise((r) => setTimeout(r, 300));
    expect(fx.recorder.findRoom(ROOM)!.state.autoRecordForThisSession).toBe(false);
  });

  it('a request with a body still has to be JSON', async () => {
    const form = await rawRequest(fx.url, 'POST', `/api/room/${ROOM}/start`, { ...SDK_HEADERS, 'content-length': '3', ...authHeader }, 'a=1');
    expect(form.status).toBe(415);
    expect(JSON.parse(form.body.toString())).toMatchObject({ code: -15 });
    const chunked = await rawRequest(fx.url, 'POST', `/api/room/${ROOM}/start`, { 'content-type': 'text/plain', 'transfer-encoding': 'chunked', ...authHeader }, 'x');
    expect(chunked.status).toBe(415);
    expect(fx.recorder.findRoom(ROOM)!.state.autoRecordForThisSession).toBe(false);
  });
});
