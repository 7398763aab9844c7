// Issue 46, break 4: the front door's head reader, differential against node:http (llhttp) on 20,000 random and mutated
// heads, and linear in the head's length (an 8 KB whitespace header cost 34-49 ms of the main thread before).
// A longer run: `npm run soak:front-door -- --heads N --seed S`.
import { describe, expect, it } from 'vitest';
import { scanSimpleGet } from '../../src/api/front-door/simple-get.js';

/** The reader's head limit (docs/scale.md). */
const MAX_HEAD = 8192;
import { differential, generateHeads } from './front-door-diff.js';

const HEADS = 20_000;
const SEED = 46;

/**
 * CPU milliseconds per scan of a head, the least of five rounds of 60 heads: the process's CPU also counts its GC and
 * other threads, which a round may catch and another not. Every head is new (nothing comes from the reader's memory).
 */
function cpuMsPerScan(head: (i: number) => string): number {
  for (let i = 0; i < 10; i++) scanSimpleGet(head(-1 - i), 0); // warm-up: the first calls are interpreted
  let least = Infinity;
  for (let round = 0; round < 5; round++) {
    const heads = Array.from({ length: 60 }, (_, i) => head(round * 60 + i));
    const t0 = process.cpuUsage();
    for (const h of heads) scanSimpleGet(h, 0);
    const t = process.cpuUsage(t0);
    least = Math.min(least, (t.user + t.system) / 1000 / heads.length);
  }
  return least;
}

describe('the front door head reader', () => {
  it(`agrees with node:http on ${HEADS} random and mutated heads (seed ${SEED})`, async () => {
    const report = await differential(generateHeads(SEED, HEADS));
    expect(report.mismatches).toEqual([]);
    expect(report.heads).toBe(HEADS);
    // Neither side of the property may be empty: many heads are answered, many handed over.
    expect(report.accepted).toBeGreaterThan(HEADS / 10);
    expect(HEADS - report.accepted).toBeGreaterThan(HEADS / 10);
  }, 120_000);

  it('reads an 8 KB whitespace header in well under 1 ms of CPU, whatever follows the whitespace', () => {
    const pad = 8000;
    const shapes = [
      (i: number) => `${' '.repeat(pad)}`,
      (i: number) => `a${' '.repeat(pad)}b${i}`,
      (i: number) => `a${'\t '.repeat(pad / 2)}\u0001`,
      (i: number) => `${' '.repeat(pad)}${i}`,
    ];
    for (const [k, shape] of shapes.entries()) {
      const head = (i: number): string => `GET /api/room HTTP/1.1\r\nHost: 127.0.0.1\r\nX-I: ${i}\r\nX-Pad: ${shape(i)}\r\n\r\n`;
      expect(head(299).length).toBeLessThanOrEqual(MAX_HEAD);
      // A generous bound (the work is ~10-50 µs), measured as CPU time so a busy machine does not move it.
      expect(cpuMsPerScan(head), `shape ${k}`).toBeLessThan(1);
    }
  });

  it('reads at most 8 KiB of a head, however long the bytes given are', () => {
    const long = `GET /api/room HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'a'.repeat(64 * 1024)}\r\n\r\n`;
    expect(scanSimpleGet(long, 0)).toBe('other');
    const justUnder = `GET /api/room HTTP/1.1\r\nHost: 127.0.0.1\r\nX: ${'a'.repeat(MAX_HEAD - 50)}\r\n\r\n`;
    expect(justUnder.length).toBeLessThanOrEqual(MAX_HEAD);
    expect(scanSimpleGet(justUnder, 0)).not.toBe('other');
  });
});
