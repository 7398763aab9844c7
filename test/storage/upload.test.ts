// Object storage against a real S3-compatible server (s3rver): multipart uploads verified by size and checksum,
// sidecars along, local copies deleted on request, a kill -9 in the middle of a multipart upload resumed with the
// parts already sent, and no secret in the log or the job list.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureLogger } from '../webhook/helpers.js';
import { longFlv } from '../post/media.js';
import { fileClosed, removeDir, startQueue, tempWorkDir } from '../post/queue-fixture.js';
import { s3Client } from '../../src/storage/client.js';
import { parseS3Url } from '../../src/storage/s3-url.js';
import { BUCKET, PART, SECRET, startS3, uploadRunner } from './s3.js';

const REL = join('1001-streamer', 'rec.flv');
let s3: Awaited<ReturnType<typeof startS3>>;
const cleanups: (() => unknown)[] = [];
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3?.close());
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

async function download(url: string, key: string): Promise<Buffer> {
  const client = s3Client(parseS3Url(url));
  try {
    const r = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    return Buffer.from(await r.Body!.transformToByteArray());
  } finally {
    client.destroy();
  }
}

function workDir(): string {
  const dir = tempWorkDir();
  cleanups.push(() => removeDir(dir));
  return dir;
}

describe('object storage (S3)', () => {
  it('a finished file and its XML reach S3 in parts, checksums match, local copies deleted after', async () => {
    const dir = workDir();
    const src = join(dir, REL);
    longFlv('clip-360p.flv', 90, src); // ~16 MB: 4 parts of 5 MiB
    writeFileSync(join(dir, '1001-streamer', 'rec.xml'), '<?xml version="1.0" encoding="utf-8"?><i></i>');
    const original = readFileSync(src);
    const url = s3.url('liverec');
    const cap = captureLogger();
    const fx = startQueue(dir, { StorageS3Url: url }, undefined, { runner: uploadRunner(url, true), logger: cap.log });
    cleanups.push(() => fx.queue.close());
    const done = fx.processed(120_000);
    fx.bus.emit({ EventType: 'FileClosed', EventTimestamp: '', EventData: fileClosed(REL) });
    const e = await done;
    expect(e.EventData.Jobs).toEqual([{ Kind: 'upload', State: 'done', Attempts: 1, Error: null, Output: `s3://127.0.0.1:${s3.port}/${BUCKET}/liverec/1001-streamer/rec.flv`, Skipped: null }]);
    expect(sha(await download(url, 'liverec/1001-streamer/rec.flv'))).toBe(sha(original));
    expect((await download(url, 'liverec/1001-streamer/rec.xml')).toString()).toContain('<i>');
    expect(existsSync(src)).toBe(false);
    expect(existsSync(join(dir, '1001-streamer', 'rec.xml'))).toBe(false);
    expect(cap.lines.find((l) => l.msg === 'uploaded 1001-streamer/rec.flv')).toMatchObject({ parts: Math.ceil(original.length / PART), resumedParts: 0 });
    expect(JSON.stringify(cap.lines)).not.toContain(SECRET);
    expect(readFileSync(join(dir, '.liverec', 'post-jobs.jsonl'), 'utf8')).not.toContain(SECRET);
  }, 180_000);

  it('kill -9 in the middle of a multipart upload: the next start sends only the missing parts; checksums match', async () => {
    const dir = workDir();
    const src = join(dir, REL);
    longFlv('clip-360p.flv', 300, src); // ~55 MB: 11 parts
    const original = readFileSync(src);
    const url = s3.url('resume');
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./upload-child.ts', import.meta.url)), dir, REL, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(() => child.kill('SIGKILL'));
    const states = join(dir, '.liverec', 'uploads');
    const partsSent = (): number => {
      if (!existsSync(states)) return 0;
      const f = readdirSync(states).find((n) => n.endsWith('.json'));
      try {
        return f ? (JSON.parse(readFileSync(join(states, f), 'utf8')) as { parts: unknown[] }).parts.length : 0;
      } catch {
        return 0;
      }
    };
    const deadline = Date.now() + 60_000;
    while (partsSent() < 2) {
      if (Date.now() > deadline) throw new Error('no part was uploaded');
      await new Promise((r) => setTimeout(r, 5));
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const before = partsSent();
    const total = Math.ceil(original.length / PART);
    expect(before).toBeLessThan(total);

    const cap = captureLogger();
    const fx = startQueue(dir, { StorageS3Url: url }, undefined, { runner: uploadRunner(url, false), logger: cap.log });
    cleanups.push(() => fx.queue.close());
    const e = await fx.processed(120_000);
    expect(e.EventData.Jobs[0]).toMatchObject({ Kind: 'upload', State: 'done', Attempts: 2 });
    expect(cap.lines.find((l) => l.msg === 'uploaded 1001-streamer/rec.flv')).toMatchObject({ parts: total, resumedParts: before });
    expect(sha(await download(url, 'resume/1001-streamer/rec.flv'))).toBe(sha(original));
    expect(existsSync(src)).toBe(true);
    expect(readdirSync(states)).toEqual([]);
  }, 180_000);
});
