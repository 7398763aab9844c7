// A resumable multipart upload: the upload id and every acknowledged part are kept in a state file, so a restart
// (or a kill -9) goes on with the parts not yet sent; the object is then checked by size and checksum.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CreateMultipartUploadCommand, HeadObjectCommand, UploadPartCommand, type S3Client } from '@aws-sdk/client-s3';
import { atomicWriteFile } from '../config/atomic-write.js';
import { LiverecError } from '../errors.js';

/** 8 MiB parts (S3's minimum is 5 MiB): a 2 GB file is 256 parts, each retried alone. */
export const PART_BYTES = 8 * 1024 * 1024;

interface State {
  key: string;
  uploadId: string;
  size: number;
  mtimeMs: number;
  partBytes: number;
  parts: { n: number; etag: string; md5: string }[];
}

export interface MultipartResult {
  etag: string;
  parts: number;
  /** Parts a previous run had already sent. */
  resumedParts: number;
}

function readPart(file: string, n: number, partBytes: number, size: number): Buffer {
  const start = (n - 1) * partBytes;
  const len = Math.min(partBytes, size - start);
  const buf = Buffer.allocUnsafe(len);
  const fd = openSync(file, 'r');
  try {
    for (let got = 0; got < len;) {
      const r = readSync(fd, buf, got, len - got, start + got);
      if (r <= 0) throw new LiverecError('STORAGE_SHORT_READ', `${file} is shorter than expected`);
      got += r;
    }
  } finally {
    closeSync(fd);
  }
  return buf;
}

const md5 = (b: Buffer): string => createHash('md5').update(b).digest('hex');

export async function uploadMultipart(client: S3Client, bucket: string, key: string, file: string, statePath: string, signal: AbortSignal, partBytes = PART_BYTES): Promise<MultipartResult> {
  const st = statSync(file);
  let state: State | null = null;
  if (existsSync(statePath)) {
    try {
      state = JSON.parse(readFileSync(statePath, 'utf8')) as State;
    } catch {
      state = null;
    }
    if (state && (state.key !== key || state.size !== st.size || state.mtimeMs !== st.mtimeMs || state.partBytes !== partBytes)) {
      // The file changed since: that upload can never complete as it is.
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: state.uploadId })).catch(() => undefined);
      state = null;
    }
  }
  const resumedParts = state?.parts.length ?? 0;
  if (!state) {
    const created = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
    state = { key, uploadId: created.UploadId!, size: st.size, mtimeMs: st.mtimeMs, partBytes, parts: [] };
    mkdirSync(dirname(statePath), { recursive: true });
    atomicWriteFile(statePath, JSON.stringify(state));
  }
  const count = Math.max(1, Math.ceil(st.size / partBytes));
  for (let n = 1; n <= count; n++) {
    if (state.parts.some((p) => p.n === n)) continue;
    const body = readPart(file, n, partBytes, st.size);
    const sent = await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: state.uploadId, PartNumber: n, Body: body }), { abortSignal: signal });
    state.parts.push({ n, etag: sent.ETag!, md5: md5(body) });
    // Durable before the next part: a kill now resumes after this one.
    atomicWriteFile(statePath, JSON.stringify(state));
  }
  const parts = [...state.parts].sort((a, b) => a.n - b.n);
  const done = await client.send(new CompleteMultipartUploadCommand({
    Bucket: bucket, Key: key, UploadId: state.uploadId, MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.n, ETag: p.etag })) },
  }), { abortSignal: signal });
  const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
  if (head.ContentLength !== st.size) throw new LiverecError('STORAGE_VERIFY', `uploaded ${key} has ${head.ContentLength} bytes, the file ${st.size}`);
  // S3 names a multipart object md5(part md5s)-N; some S3-compatible servers name it by the whole content's md5.
  const multipartTag = `${createHash('md5').update(Buffer.concat(parts.map((p) => Buffer.from(p.md5, 'hex')))).digest('hex')}-${parts.length}`;
  const etag = (head.ETag ?? done.ETag ?? '').replace(/"/g, '');
  const whole = parts.length === 1 ? parts[0]!.md5 : wholeMd5(file);
  if (etag !== multipartTag && etag !== whole) throw new LiverecError('STORAGE_VERIFY', `uploaded ${key} has checksum ${etag}, expected ${multipartTag}`);
  rmSync(statePath, { force: true });
  return { etag, parts: parts.length, resumedParts };
}

function wholeMd5(file: string): string {
  const h = createHash('md5');
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(4 * 1024 * 1024);
  try {
    for (let pos = 0; ;) {
      const r = readSync(fd, buf, 0, buf.length, pos);
      if (r <= 0) break;
      h.update(buf.subarray(0, r));
      pos += r;
    }
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}
