// A real S3-compatible server for tests (s3rver from npm) on loopback, and the queue runner that uploads to it.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { RoomSettings } from '../../src/config/fields.js';
import { createServiceRunner } from '../../src/post/runners.js';
import type { JobRunner } from '../../src/post/runner.js';

export const BUCKET = 'recordings';
/** s3rver's one built-in key pair. */
export const KEY = 'S3RVER';
export const SECRET = 'S3RVER';
/** S3's smallest part, so a few tens of MB make a multipart upload of several parts. */
export const PART = 5 * 1024 * 1024;

export async function startS3(): Promise<{ url: (prefix: string) => string; port: number; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'liverec-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const addr = (await server.run()) as AddressInfo;
  return {
    port: addr.port,
    url: (prefix) => `s3://${KEY}:${SECRET}@127.0.0.1:${addr.port}/${BUCKET}/${prefix}?region=us-east-1&pathStyle=true&tls=false`,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The service's runner with StorageS3Url = url; the cover step is not used in these tests. */
export function uploadRunner(url: string, deleteLocal: boolean): JobRunner {
  return createServiceRunner(() => ({}) as RoomSettings, () => ({ url, deleteLocal, partBytes: PART }));
}
