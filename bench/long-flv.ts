// A long FLV recording made of back-to-back copies of a simulator clip (sequence headers once, timestamps continued).
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/paths.js';

/** A committed simulator clip (the same from src/ and dist/). */
export const simulatorClip = (name: string): string => join(packageRoot, 'src', 'simulator', 'clips', name);

/** The clips loop every 3.84 s (four 0.96 s GOPs). */
const PERIOD_MS = 3840;

/** Writes `loops` copies of a clip to `out`, streamed (a 2 GB file needs no 2 GB of memory). */
export function longFlv(clipName: string, loops: number, out: string): void {
  const src = readFileSync(simulatorClip(clipName));
  const headerEnd = src.readUInt32BE(5) + 4;
  const tags: { ts: number; buf: Buffer; config: boolean }[] = [];
  for (let p = headerEnd; p + 11 <= src.length;) {
    const size = src.readUIntBE(p + 1, 3);
    const ts = ((src[p + 7]! << 24) | src.readUIntBE(p + 4, 3)) >>> 0;
    const type = src[p]! & 0x1f;
    const body = src.subarray(p + 11, p + 11 + size);
    const config = type === 18 || (type === 9 && ((body[0]! & 0x80 ? body[0]! & 0x0f : body[1]!) === 0)) || (type === 8 && body[1] === 0);
    tags.push({ ts, buf: src.subarray(p, p + 11 + size + 4), config });
    p += 11 + size + 4;
  }
  const fd = openSync(out, 'w');
  try {
    writeSync(fd, src.subarray(0, headerEnd));
    for (let i = 0; i < loops; i++) {
      const parts: Buffer[] = [];
      for (const t of tags) {
        if (i > 0 && t.config) continue;
        const b = Buffer.from(t.buf);
        const ts = t.ts + i * PERIOD_MS;
        b.writeUIntBE(ts & 0xffffff, 4, 3);
        b[7] = (ts >>> 24) & 0xff;
        parts.push(b);
      }
      writeSync(fd, Buffer.concat(parts));
    }
  } finally {
    closeSync(fd);
  }
}
