// Bit-level reading of NAL unit payloads (RBSP): exp-Golomb codes and emulation-prevention removal, for AVC and HEVC.

export class BitReader {
  private pos = 0;
  constructor(private readonly b: Uint8Array, startByte = 0) {
    this.pos = startByte * 8;
  }
  bit(): number {
    if (this.pos >= this.b.length * 8) throw new RangeError('parameter set ends early');
    const v = (this.b[this.pos >> 3]! >> (7 - (this.pos & 7))) & 1;
    this.pos++;
    return v;
  }
  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }
  skip(n: number): void {
    if (this.pos + n > this.b.length * 8) throw new RangeError('parameter set ends early');
    this.pos += n;
  }
  ue(): number {
    let zeros = 0;
    while (this.bit() === 0) if (++zeros > 31) throw new RangeError('bad exp-Golomb code');
    return 2 ** zeros - 1 + this.bits(zeros);
  }
  se(): number {
    const k = this.ue();
    return k & 1 ? (k + 1) / 2 : -(k / 2);
  }
}

/** Removes emulation-prevention bytes (00 00 03 → 00 00). */
export function unescapeRbsp(nal: Uint8Array): Uint8Array {
  const out: number[] = [];
  let zeros = 0;
  for (let i = 0; i < nal.length; i++) {
    const b = nal[i]!;
    if (zeros >= 2 && b === 3) {
      zeros = 0;
      continue;
    }
    zeros = b === 0 ? zeros + 1 : 0;
    out.push(b);
  }
  return Uint8Array.from(out);
}
