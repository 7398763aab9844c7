// A whole buffer to a file descriptor: writeSync may write less than asked.
import { writeSync } from 'node:fs';

export function writeAll(fd: number, data: Uint8Array, position?: number): void {
  for (let done = 0; done < data.length;) {
    done += writeSync(fd, data, done, data.length - done, position === undefined ? null : position + done);
  }
}
