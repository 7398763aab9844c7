// A temp file that holds the moov's sample tables while pass 1 builds them, so a remux's memory stays flat at any length.
import { closeSync, openSync, readSync, rmSync, unlinkSync } from 'node:fs';
import { writeAll } from './write-all.js';

/** Bytes a table keeps in memory before it goes to the file: a dozen tables stay under 1 MB. */
export const SPOOL_BLOCK = 64 * 1024;
const BLOCK = SPOOL_BLOCK;
const FIRST_BLOCK = 1024;

/** One temp file shared by every table; each table owns the blocks it flushed there, in order. */
export class Spool {
  private readonly fd: number;
  private end = 0;
  private unlinked = false;
  /** Where tables are read back into as they are written out, one block at a time (shared: one is written at a time). */
  readonly scratch = Buffer.allocUnsafe(BLOCK);

  constructor(private readonly path: string) {
    this.fd = openSync(path, 'w+');
    try {
      // Gone from the directory at once where the OS allows it: a kill -9 leaves nothing behind.
      unlinkSync(path);
      this.unlinked = true;
    } catch {
      // Windows keeps an open file's name: removed in close() instead.
    }
  }

  table(): SpoolTable {
    return new SpoolTable(this);
  }

  /** Appends a block; returns where it went. */
  put(block: Uint8Array): number {
    const at = this.end;
    writeAll(this.fd, block, at);
    this.end += block.length;
    return at;
  }

  get(into: Buffer, length: number, at: number): void {
    for (let done = 0; done < length;) {
      const got = readSync(this.fd, into, done, length - done, at + done);
      if (got <= 0) throw new Error('the remux table spool was cut short');
      done += got;
    }
  }

  close(): void {
    closeSync(this.fd);
    if (!this.unlinked) rmSync(this.path, { force: true });
  }
}

/** An append-only table of big-endian 32-bit words (the body of stsz, stts, stco …), counted by its owner. */
export class SpoolTable {
  private readonly buf = Buffer.allocUnsafe(BLOCK);
  private used = 0;
  /** Position and length of each flushed block. */
  private readonly blocks: number[] = [];
  private flushed = 0;
  /**
   * The first block is small, so that spill() has run before the optimizing compiler compiles u32(): code compiled
   * without it would be thrown away (a deoptimization and a second compile) when the first 64 KB block fills.
   */
  private limit = FIRST_BLOCK;

  constructor(private readonly spool: Spool) {}

  /** Bytes appended in all. */
  get length(): number {
    return this.flushed + this.used;
  }

  u32(v: number): void {
    if (this.used + 4 > this.limit) this.spill();
    // Byte stores, not writeUInt32BE: this runs for every table entry, and Buffer's checks cost more than the store.
    const b = this.buf;
    const i = this.used;
    b[i] = v >>> 24;
    b[i + 1] = v >>> 16;
    b[i + 2] = v >>> 8;
    b[i + 3] = v;
    this.used = i + 4;
  }

  /** A non-negative integer below 2^53 as two words. */
  u64(v: number): void {
    this.u32(Math.floor(v / 0x100000000));
    this.u32(v >>> 0);
  }

  private spill(): void {
    this.blocks.push(this.spool.put(this.buf.subarray(0, this.used)), this.used);
    this.flushed += this.used;
    this.used = 0;
    this.limit = BLOCK;
  }

  /** Writes the table to fd in order, each block passed through `map` first (chunk offsets get the mdat's position). */
  writeTo(fd: number, map?: (block: Buffer) => Buffer): void {
    for (let i = 0; i < this.blocks.length; i += 2) {
      const part = this.spool.scratch.subarray(0, this.blocks[i + 1]!);
      this.spool.get(part, part.length, this.blocks[i]!);
      writeAll(fd, map ? map(part) : part);
    }
    const tail = this.buf.subarray(0, this.used);
    if (tail.length) writeAll(fd, map ? map(tail) : tail);
  }
}
