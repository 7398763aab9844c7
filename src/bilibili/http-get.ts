// A small GET for JSON APIs over node:http/https with a whole-request timeout and a body size cap.
import http from 'node:http';
import https from 'node:https';
import { BiliErrorCode, BilibiliError } from './errors.js';

// node:http instead of undici: room workers make these calls, and importing npm undici costs a worker
// about +8 MB RSS (measured, see stack.md); the API is a few small GETs per room per ten minutes.
const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 8 });

export interface TextResponse {
  status: number;
  contentType: string;
  body: string;
}

const MAX_BODY = 4 * 1024 * 1024;

export function httpGetText(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<TextResponse> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch (err) {
      reject(new BilibiliError(BiliErrorCode.ApiNetwork, `Bad API URL ${url}`, { cause: err }));
      return;
    }
    const secure = target.protocol === 'https:';
    const mod = secure ? https : http;
    let settled = false;
    const finish = (err: BilibiliError | null, value?: TextResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (err) {
        req.destroy();
        reject(err);
      } else resolve(value!);
    };
    const req = mod.get(target, { headers, agent: secure ? httpsAgent : httpAgent }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) {
          finish(new BilibiliError(BiliErrorCode.ApiBadResponse, `API answer from ${target.pathname} exceeds ${MAX_BODY} bytes`));
          return;
        }
        chunks.push(c);
      });
      res.on('end', () =>
        finish(null, {
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', (err) => finish(new BilibiliError(BiliErrorCode.ApiNetwork, `API answer from ${target.pathname} broke off: ${err.message}`, { cause: err })));
    });
    req.on('error', (err) => finish(new BilibiliError(BiliErrorCode.ApiNetwork, `API request to ${target.host} failed: ${err.message}`, { cause: err })));
    const timer = setTimeout(
      () => finish(new BilibiliError(BiliErrorCode.ApiTimeout, `API call ${target.pathname} timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onAbort = (): void => finish(new BilibiliError(BiliErrorCode.ApiNetwork, 'API call cancelled', { cause: signal?.reason }));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
