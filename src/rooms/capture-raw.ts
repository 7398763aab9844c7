// One connection in RawData mode: the bytes exactly as received, one file, no parsing (Duration reported as 0).
import { closeSync, openSync, writeSync } from 'node:fs';
import type { CaptureInput } from './origin-switch.js';
import { FlvClock } from '../danmaku/flv-clock.js';
import { Capture, type CaptureEnd } from './capture-standard.js';

export class RawCapture extends Capture {
  private fd: number | null = null;
  private path = '';
  private size = 0;
  /** Media progress for danmaku timing: the file holds the stream's own timestamps, so no repair to follow. */
  private readonly clock = new FlvClock();

  /** RawData has no tag boundaries to cut at: a split is a no-op, as in brec. */
  split(): void {}

  closeFiles(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    this.deps.files.closed({ path: this.path, size: this.size, duration: 0 });
  }

  protected async consume(download: CaptureInput): Promise<CaptureEnd> {
    const { files, stats } = this.deps;
    await download.consume((chunk) => {
      if (this.aborted) return;
      stats.network(chunk.length);
      this.progressAt = Date.now();
      if (this.fd === null) {
        this.path = files.nextPath();
        this.fd = openSync(this.path, 'wx');
        files.opened(this.path);
      }
      const t0 = performance.now();
      writeSync(this.fd, chunk); // written before the read buffer is reused
      this.size += chunk.length;
      stats.disk(chunk.length, performance.now() - t0);
      this.clock.push(chunk);
      const position = this.clock.position;
      if (position !== null) files.mediaPosition(position);
    });
    return { reason: 'eof', bytes: download.bytesReceived };
  }
}
