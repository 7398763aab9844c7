// Sequential reads of a file through one reused window: demuxers ask for the next n bytes without loading the file.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const WINDOW = 1024 * 1024;
const FIRST_READ = 16 * 1024;

export class FileReader {
  private readonly fd: number;
  readonly size: number;
  private buf: Buffer;
  private start = 0;
  private end = 0;
  /** File offset of buf[0]. */
  private base = 0;
  private fills = 0;

  constructor(path: string, window = WINDOW) {
    this.fd = openSync(path, 'r');
    this.size = fstatSync(this.fd).size;
    this.buf = Buffer.allocUnsafe(window);
  }

  /** File offset of the next unread byte. */
  get position(): number {
    return this.base + this.start;
  }

  /** The window and the index in it of the next unread byte (valid until the next call): for parsers that read in place. */
  get bytes(): Buffer {
    return this.buf;
  }

  get at(): number {
    return this.start;
  }

  /** Whether the next n bytes are in the window (read in when they are not), false when the file ends first. */
  ensure(n: number): boolean {
    if (this.end - this.start < n) this.fill(n);
    return this.end - this.start >= n;
  }

  /** The next n bytes (a view valid until the next call), or null when the file ends first. */
  peek(n: number): Buffer | null {
    return this.ensure(n) ? this.buf.subarray(this.start, this.start + n) : null;
  }

  /** Consumes n bytes (after peek); bytes skipped past the window are never read. */
  skip(n: number): void {
    const have = this.end - this.start;
    if (n <= have) {
      this.start += n;
      return;
    }
    this.base += this.end + (n - have);
    this.start = this.end = 0;
  }

  /** Moves to an absolute offset (forward or back): the window is dropped, the next ensure() reads there. */
  seek(offset: number): void {
    const inWindow = offset - this.base;
    if (inWindow >= this.start && inWindow <= this.end) {
      this.start = inWindow;
      return;
    }
    this.base = offset;
    this.start = this.end = 0;
  }

  /** n bytes at an absolute offset, read apart from the window (a check beyond it: a tag's trailer); short at the end. */
  readAt(offset: number, n: number): Buffer {
    const inWindow = offset - this.base;
    if (inWindow >= 0 && inWindow + n <= this.end) return this.buf.subarray(inWindow, inWindow + n);
    const b = Buffer.alloc(n);
    let done = 0;
    while (done < n) {
      const got = readSync(this.fd, b, done, n - done, offset + done);
      if (got <= 0) break;
      done += got;
    }
    return b.subarray(0, done);
  }

  read(n: number): Buffer | null {
    const b = this.peek(n);
    if (b) this.skip(n);
    return b;
  }

  private fill(n: number): void {
    if (n > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(n, this.buf.length * 2));
      this.buf.copy(bigger, 0, this.start, this.end);
      this.buf = bigger;
    } else {
      this.buf.copy(this.buf, 0, this.start, this.end);
    }
    this.base += this.start;
    this.end -= this.start;
    this.start = 0;
    // The first read is short, so that this refill runs again soon: the optimizing compiler then compiles ensure()
    // with it, instead of code that is thrown away (and compiled again) when the first full window runs out.
    const want = this.fills++ === 0 ? Math.max(n, Math.min(FIRST_READ, this.buf.length)) : this.buf.length;
    while (this.end < want) {
      const got = readSync(this.fd, this.buf, this.end, want - this.end, this.base + this.end);
      if (got <= 0) break;
      this.end += got;
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}
