// Plain MP4 box building for the remuxer's moov: sizes, full-box headers and the fixed matrices.

export function box(type: string, ...parts: (Buffer | Uint8Array)[]): Buffer {
  const size = 8 + parts.reduce((n, p) => n + p.length, 0);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(size, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, ...parts]);
}

/** Bytes written to a file when the box is written: a sample table kept in a spool file. */
export interface Piece {
  readonly length: number;
  writeTo(fd: number): void;
}

/**
 * A box as a list of pieces, never copied into one: a moov of a long recording runs to megabytes (its tables stay
 * in a spool file until written), and nesting copies (stbl → minf → mdia → trak → moov) would hold it five times over.
 */
export type BoxList = (Buffer | Piece)[];

export function boxList(type: string, ...parts: (Buffer | Piece | BoxList)[]): BoxList {
  const flat: (Buffer | Piece)[] = [];
  for (const p of parts) {
    if (Array.isArray(p)) flat.push(...p);
    else flat.push(p);
  }
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + flat.reduce((n, b) => n + b.length, 0), 0);
  head.write(type, 4, 'latin1');
  return [head, ...flat];
}

export function fullBoxList(type: string, version: number, flags: number, ...parts: (Buffer | Piece)[]): BoxList {
  const vf = Buffer.alloc(4);
  vf.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff), 0);
  return boxList(type, vf, ...parts);
}

export const listBytes = (l: BoxList): number => l.reduce((n, b) => n + b.length, 0);

export function fullBox(type: string, version: number, flags: number, ...parts: (Buffer | Uint8Array)[]): Buffer {
  const vf = Buffer.alloc(4);
  vf.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff), 0);
  return box(type, vf, ...parts);
}

export function u32(...values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, i * 4));
  return b;
}

export function u64(value: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(Math.max(0, Math.round(value))), 0);
  return b;
}

/** The identity matrix of tkhd and mvhd. */
export const MATRIX = u32(0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000);
