// GET a JSON document from the benchmark's own child servers (the simulator's control API, the recorder's API).
import { Agent, get } from 'node:http';

/** One keep-alive connection pool for the benchmark's sampling (a few requests per second, not the load). */
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

export function getJson<T>(url: string, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) return reject(new Error(`GET ${url}: HTTP ${res.statusCode} ${text.slice(0, 200)}`));
        try {
          resolve(JSON.parse(text) as T);
        } catch (err) {
          reject(new Error(`GET ${url}: bad JSON (${(err as Error).message})`));
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url}: no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

/** Thrown by a probe when waiting longer cannot help (the child died): waitFor stops at once. */
export class GiveUp extends Error {}

/** Polls `probe` until it returns a value (not undefined) or `timeoutMs` passes. */
export async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, everyMs = 500): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      if (err instanceof GiveUp) throw err;
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export function destroyAgent(): void {
  agent.destroy();
}
