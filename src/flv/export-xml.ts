// `tool export`: an FLV file's tag structure as brec's XML tag list, streamed (gzip when the name ends in .gz).
import { closeSync, fstatSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { FlvError } from './errors.js';
import { hashBytesHex } from './fingerprint.js';
import { FlvParser } from './parser.js';
import { type ToolStatus, statusOf } from './process-file.js';
import { XML_EPILOGUE, XML_PROLOGUE, metaXml, tagXml } from './xml/xml-writer.js';
import { VERSION } from '../version.js';

export interface ExportReport {
  status: ToolStatus;
  input: string;
  output: string;
  tagCount: number;
  errorCode?: string;
  errorMessage?: string;
}

/** Buffers text and writes it in ~1 MB pieces; gzip output is a series of gzip members (valid gzip). */
class TextSink {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly fd: number, private readonly gzip: boolean) {}
  add(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= 1 << 20) this.flush();
  }
  flush(): void {
    if (!this.parts.length) return;
    const text = Buffer.from(this.parts.join(''), 'utf8');
    this.parts = [];
    this.size = 0;
    const bytes = this.gzip ? gzipSync(text) : text;
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done);
  }
}

/**
 * Writes every tag of `input` (FLV) to `output` as XML: DataHash per tag (liverec's 64-bit content hash,
 * used only for equality like brec's FarmHash), NALU lists for video, bytes for sequence headers.
 * A problem mid-file still leaves a complete XML document of the tags before it.
 */
export function exportFlvToXml(input: string, output: string, onProgress?: (done: number, total: number) => void): ExportReport {
  const report: ExportReport = { status: 'OK', input, output, tagCount: 0 };
  const fail = (err: unknown, status?: ToolStatus): ExportReport => {
    report.status = status ?? statusOf(err);
    report.errorCode = String((err as { code?: unknown }).code ?? 'UNKNOWN');
    report.errorMessage = (err as Error).message ?? String(err);
    return report;
  };
  let inFd: number;
  let total: number;
  try {
    inFd = openSync(input, 'r');
    total = fstatSync(inFd).size;
  } catch (err) {
    return fail(err, 'InputIOError');
  }
  let outFd: number;
  try {
    outFd = openSync(output, 'w');
  } catch (err) {
    closeSync(inFd);
    return fail(err, 'OutputIOError');
  }
  const sink = new TextSink(outFd, /\.gz$/i.test(output));
  const parser = new FlvParser();
  let failure: unknown = null;
  try {
    const st = statSync(input);
    sink.add(XML_PROLOGUE + metaXml({
      version: `liverec ${VERSION}`, exportTime: new Date().toISOString(), fileSize: st.size,
      fileCreationTime: st.birthtime.toISOString(), fileModificationTime: st.mtime.toISOString(),
    }) + '  <Tags>\n');
    const buf = Buffer.allocUnsafeSlow(1 << 20);
    let done = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(inFd, buf, 0, buf.length, null);
      } catch (err) {
        failure = new FlvError('INPUT_IO', `Cannot read ${input}: ${(err as Error).message}`, { cause: err });
        break;
      }
      // Each tag is serialised before the next read, so reusing `buf` is safe.
      const r = n === 0 ? parser.end() : parser.push(buf.subarray(0, n));
      for (const t of r.tags) {
        if (t.data) t.dataHash = hashBytesHex(t.data);
        sink.add(tagXml(t));
        report.tagCount++;
      }
      if (r.error) {
        failure = r.error;
        break;
      }
      if (n === 0) break;
      parser.detach(buf.buffer);
      done += n;
      onProgress?.(done, total);
    }
    sink.add(XML_EPILOGUE);
    sink.flush();
  } catch (err) {
    failure ??= new FlvError('OUTPUT_IO', `Cannot write ${output}: ${(err as Error).message}`, { cause: err });
  } finally {
    closeSync(inFd);
    closeSync(outFd);
  }
  if (failure) return fail(failure, parser.bytesIn === 0 && (failure as FlvError).code === 'TRUNCATED' ? 'NotFlvFile' : undefined);
  if (parser.anomalies.truncatedBytes > 0) {
    return fail(new FlvError('TRUNCATED', `Input ends inside a tag: ${parser.anomalies.truncatedBytes} bytes of an incomplete tag were dropped.`));
  }
  return report;
}
