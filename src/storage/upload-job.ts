// The upload step: the finished file (the MP4 after a remux) and its sidecars to S3, multipart and resumable,
// verified by size and checksum; the local copies deleted afterwards when StorageDeleteLocal asks for it.
import { redactErrorText } from '../log/redact.js';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { LiverecError } from '../errors.js';
import type { PostJob } from '../post/job.js';
import type { JobContext, JobResult } from '../post/runner.js';
import { s3Client } from './client.js';
import { PART_BYTES, uploadMultipart } from './multipart.js';
import { objectKey, parseS3Url } from './s3-url.js';

export interface StorageSettings {
  url: string | null;
  deleteLocal: boolean;
  /** Part size (tests use small parts); default PART_BYTES. */
  partBytes?: number;
}

const SIDECARS = ['.xml', '.ass', '.cover.jpg', '.cover.png', '.cover.webp'];

/** One small file through lib-storage, then checked: same size, ETag = its MD5. */
async function uploadSmall(client: S3Client, bucket: string, key: string, file: string, signal: AbortSignal): Promise<void> {
  const upload = new Upload({ client, params: { Bucket: bucket, Key: key, Body: createReadStream(file) } });
  const onAbort = (): void => void upload.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await upload.done();
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
  const size = statSync(file).size;
  const md5 = createHash('md5').update(readFileSync(file)).digest('hex');
  if (head.ContentLength !== size || (head.ETag ?? '').replace(/"/g, '') !== md5) {
    throw new LiverecError('STORAGE_VERIFY', `uploaded ${key} does not match ${file} (size ${head.ContentLength}/${size}, ETag ${head.ETag})`);
  }
}

export async function runUpload(job: PostJob, ctx: JobContext, s: StorageSettings): Promise<JobResult> {
  if (!s.url) {
    ctx.log.info('StorageS3Url was cleared since the file closed; nothing uploaded');
    return {};
  }
  const target = parseS3Url(s.url);
  const client = s3Client(target);
  const partBytes = s.partBytes ?? PART_BYTES;
  const base = job.source.replace(/\.[^./\\]+$/, '');
  const files = [ctx.input, ...SIDECARS.map((x) => base + x).filter((f) => f !== ctx.input && existsSync(f))];
  const rel = (f: string): string => relative(ctx.workDir, f).split(sep).join('/');
  try {
    for (const file of files) {
      if (!existsSync(file)) throw new LiverecError('STORAGE_NO_FILE', `${file} is gone; nothing to upload`);
      const key = objectKey(target, rel(file));
      if (statSync(file).size > partBytes) {
        const stateFile = join(ctx.workDir, '.liverec', 'uploads', `${createHash('sha1').update(`${job.id}:${key}`).digest('hex').slice(0, 16)}.json`);
        const r = await uploadMultipart(client, target.bucket, key, file, stateFile, ctx.signal, partBytes);
        ctx.log.info({ key, target: target.redacted, parts: r.parts, resumedParts: r.resumedParts }, `uploaded ${rel(file)}`);
      } else {
        await uploadSmall(client, target.bucket, key, file, ctx.signal);
        ctx.log.info({ key, target: target.redacted }, `uploaded ${rel(file)}`);
      }
    }
  } catch (err) {
    // The SDK's texts may quote the request; the key pair is cut from them like every secret (src/log/redact.ts).
    throw new LiverecError((err as { code?: string }).code ?? 'STORAGE_UPLOAD', redactErrorText(err, [target.accessKeyId, target.secretAccessKey]));
  } finally {
    client.destroy();
  }
  if (s.deleteLocal) {
    for (const f of files) rmSync(f, { force: true });
    ctx.log.info({ files: files.map(rel) }, 'local copies deleted after the upload (StorageDeleteLocal)');
  }
  return { output: `s3://${target.endpoint.replace(/^https?:\/\//, '')}/${target.bucket}/${objectKey(target, rel(ctx.input))}` };
}
