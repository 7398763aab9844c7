// Sequential reads of a file through one reused window: demuxers ask for the next n bytes without loading the file.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const WINDOW = 1024 * 1024;

export class FileReader {
  private readonly fd: number;
  readonly size: number;
  private buf = Buffer.allocUnsafe(WINDOW);
  private start = 0;
  private end = 0;
  /** File offset of buf[0]. */
  private base = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'r');
    this.size = fstatSync(this.fd).size;
  }

  /** File offset of the next unread byte. */
  get position(): number {
    return this.base + this.start;
  }

  /** The next n bytes (a view valid until the next call), or null when the file ends first. */
  peek(n: number): Buffer | null {
    if (this.end - this.start < n) this.fill(n);
    return this.end - this.start >= n ? this.buf.subarray(this.start, this.start + n) : null;
  }

  /** Consumes n bytes (after peek). */
  skip(n: number): void {
    const have = this.end - this.start;
    if (n <= have) {
      this.start += n;
      return;
    }
    this.base += this.end + (n - have);
    this.start = this.end = 0;
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
    while (this.end < this.buf.length) {
      const got = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, this.base + this.end);
      if (got <= 0) break;
      this.end += got;
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}
