// A minimal WebAssembly assembler: LEB128, opcodes and section framing for the modules built in this folder.

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

export function sleb(v: bigint): number[] {
  const out: number[] = [];
  v = BigInt.asIntN(64, v);
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    if ((v === 0n && !(b & 0x40)) || (v === -1n && b & 0x40)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

export const I32 = 0x7f;
export const I64 = 0x7e;
export const V128 = 0x7b;
/** SIMD instructions: the 0xfd prefix and the opcode as an unsigned LEB128. */
export const simd = (opcode: number): number[] => [0xfd, ...uleb(opcode)];

export const op = {
  end: 0x0b, else: 0x05, block: 0x02, loop: 0x03, if: 0x04, void: 0x40, br: 0x0c, brIf: 0x0d, call: 0x10,
  localGet: 0x20, localSet: 0x21, localTee: 0x22, globalGet: 0x23, globalSet: 0x24,
  i32Load: 0x28, i64Load: 0x29, i32Load8U: 0x2d, i32Store: 0x36, i32Const: 0x41, i64Const: 0x42,
  i32Eqz: 0x45, i32Eq: 0x46, i32Ne: 0x47, i32LtU: 0x49, i32GeU: 0x4f, i64LtU: 0x54, i64GtU: 0x56,
  i32Add: 0x6a, i32Sub: 0x6b, i32And: 0x71, i32Or: 0x72, i32Shl: 0x74, i32ShrU: 0x76, return: 0x0f, select: 0x1b,
  i64Add: 0x7c, i64Sub: 0x7d, i64Mul: 0x7e, i64And: 0x83, i64Xor: 0x85, i64Shl: 0x86, i64ShrU: 0x88,
  i32WrapI64: 0xa7, i64ExtendI32U: 0xad,
  i32Store8: 0x3a, i32LtS: 0x48, i32GtU: 0x4b, i32LeU: 0x4d, i32GeS: 0x4e, i32Mul: 0x6c, i64Eq: 0x51, i64Ne: 0x52,
  i32Xor: 0x73,
};

export const c64 = (v: bigint): number[] => [op.i64Const, ...sleb(v)];
export const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
export const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
export const name = (s: string): number[] => [...uleb(s.length), ...Buffer.from(s, 'ascii')];
export const func = (locals: number[][], code: number[]): number[] => {
  const body = [...vec(locals), ...code, op.end];
  return [...uleb(body.length), ...body];
};
/** i32.const */
export const c32 = (v: number): number[] => [op.i32Const, ...sleb(BigInt(v | 0))];
