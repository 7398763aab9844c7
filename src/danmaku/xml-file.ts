// One danmaku XML file on disk that stays well-formed: every flush rewrites the closing `</i>` after the new elements.
import { closeSync, openSync, writeSync } from 'node:fs';
import { ROOT_CLOSE } from './xml-format.js';

const CLOSE_BYTES = Buffer.from(`${ROOT_CLOSE}\n`);

/**
 * Elements are buffered and written at each flush as one positioned write of `elements + </i>` over the previous
 * `</i>`. The file only grows, so a process killed at any moment (kill -9) leaves a complete document holding
 * everything up to the last flush. A write error disables the file (brec: the writer stops for this file).
 */
export class DanmakuXmlFile {
  private fd: number | null;
  /** Where the closing tag starts (bytes). */
  private tail = 0;
  private pending: string[] = [];
  /** Elements buffered and not yet on disk. */
  pendingCount = 0;
  written = 0;
  failed: Error | null = null;

  constructor(readonly path: string, prologue: string) {
    this.fd = openSync(path, 'w');
    this.writeAt(Buffer.from(prologue));
  }

  get isOpen(): boolean {
    return this.fd !== null;
  }

  append(element: string): void {
    if (this.fd === null) return;
    this.pending.push(element);
    this.pendingCount++;
  }

  flush(): void {
    if (this.fd === null || this.pending.length === 0) return;
    const body = Buffer.from(this.pending.join(''));
    this.written += this.pendingCount;
    this.pending = [];
    this.pendingCount = 0;
    this.writeAt(body);
  }

  close(): void {
    if (this.fd === null) return;
    this.flush();
    try {
      closeSync(this.fd);
    } catch {
      // The data is already written; nothing more to save.
    }
    this.fd = null;
  }

  /** Writes `bytes` at the tail followed by the closing tag, in one call. */
  private writeAt(bytes: Buffer): void {
    const fd = this.fd!;
    const out = Buffer.concat([bytes, CLOSE_BYTES]);
    try {
      let done = 0;
      while (done < out.length) done += writeSync(fd, out, done, out.length - done, this.tail + done);
      this.tail += bytes.length;
    } catch (err) {
      this.failed = err as Error;
      this.pending = [];
      try {
        closeSync(fd);
      } catch {
        // already reported as failed
      }
      this.fd = null;
    }
  }
}
