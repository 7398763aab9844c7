// Pass 2 of the remux: the mdat's bytes. A verbatim region of the input is copied in large blocks; samples a
// demuxer had to build (TS) are written one after another as the demuxer gives them again.
import { readSync } from 'node:fs';
import type { SampleSink } from './track.js';
import { writeAll } from './write-all.js';

const BLOCK = 4 * 1024 * 1024;

/** Copies input[start, end) to the end of out; false when the input ends first (it changed while being remuxed). */
export function copyRegion(input: number, out: number, start: number, end: number): boolean {
  const buf = Buffer.allocUnsafe(Math.min(BLOCK, Math.max(1, end - start)));
  for (let at = start; at < end;) {
    const got = readSync(input, buf, 0, Math.min(buf.length, end - at), at);
    if (got <= 0) return false;
    writeAll(out, got === buf.length ? buf : buf.subarray(0, got));
    at += got;
  }
  return true;
}

/** The samples of a demuxer that builds them, appended to the output through one reused buffer. */
export class DataWriter implements SampleSink {
  private readonly buf = Buffer.allocUnsafe(BLOCK);
  private used = 0;
  private tracks = 0;
  written = 0;

  constructor(private readonly fd: number, private readonly keep: (track: number) => boolean) {}

  track(): number {
    return this.tracks++;
  }

  anomaly(): void {
    // Counted in pass 1.
  }

  description(): void {
    // Recorded in pass 1.
  }

  fileSample(): void {
    throw new Error('a verbatim sample in pass 2: the mdat is copied whole');
  }

  sample(index: number, _dts: number, _cto: number, _sync: boolean, data: Uint8Array): void {
    if (!this.keep(index)) return;
    this.written += data.length;
    if (data.length > BLOCK - this.used) this.flush();
    if (data.length > BLOCK) {
      writeAll(this.fd, data);
      return;
    }
    this.buf.set(data, this.used);
    this.used += data.length;
  }

  flush(): void {
    if (this.used) writeAll(this.fd, this.buf.subarray(0, this.used));
    this.used = 0;
  }
}
