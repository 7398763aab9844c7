// RFC 6381 codec strings of an fMP4 init section (ftyp+moov), for MediaSource.addSourceBuffer: the live preview of
// HLS fMP4 rooms learns what it plays from the stream itself (avcC, hvcC, av1C, esds).

interface Box { type: string; start: number; body: number; end: number }

/** The whole boxes in buf[start, end); a torn one ends the list. */
export function boxesIn(buf: Uint8Array, start = 0, end = buf.length): Box[] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const out: Box[] = [];
  let p = start;
  while (p + 8 <= end) {
    let size = view.getUint32(p);
    let body = p + 8;
    if (size === 1) {
      if (p + 16 > end) break;
      size = Number(view.getBigUint64(p + 8));
      body = p + 16;
    }
    if (size < body - p || p + size > end) break;
    out.push({ type: String.fromCharCode(buf[p + 4]!, buf[p + 5]!, buf[p + 6]!, buf[p + 7]!), start: p, body, end: p + size });
    p += size;
  }
  return out;
}

const find = (buf: Uint8Array, parent: Box, type: string, skip = 0): Box | undefined =>
  boxesIn(buf, parent.body + skip, parent.end).find((b) => b.type === type);

/** Where the init section's moov ends once ftyp and moov are whole; -1 while bytes are missing. */
export function initEnd(buf: Uint8Array): number {
  const moov = boxesIn(buf).find((b) => b.type === 'moov');
  return moov ? moov.end : -1;
}

const hex2 = (n: number): string => n.toString(16).padStart(2, '0');

function avc(type: string, buf: Uint8Array, c: Box): string {
  return `${type}.${hex2(buf[c.body + 1]!)}${hex2(buf[c.body + 2]!)}${hex2(buf[c.body + 3]!)}`;
}

function hevc(type: string, buf: Uint8Array, c: Box): string {
  const b = c.body;
  const space = buf[b + 1]! >> 6;
  const tier = (buf[b + 1]! >> 5) & 1;
  const profile = buf[b + 1]! & 0x1f;
  const compat = new DataView(buf.buffer, buf.byteOffset).getUint32(b + 2);
  let reversed = 0;
  for (let i = 0; i < 32; i++) if (compat & (1 << i)) reversed |= 1 << (31 - i);
  const constraints = Array.from(buf.subarray(b + 6, b + 12));
  while (constraints.length && constraints.at(-1) === 0) constraints.pop();
  const level = buf[b + 12]!;
  return [`${type}.${['', 'A', 'B', 'C'][space]}${profile}`, (reversed >>> 0).toString(16), `${tier ? 'H' : 'L'}${level}`, ...constraints.map((x) => x.toString(16))].join('.');
}

function av1(buf: Uint8Array, c: Box): string {
  const b1 = buf[c.body + 1]!;
  const b2 = buf[c.body + 2]!;
  const depth = b2 & 0x40 ? (b2 & 0x20 ? 12 : 10) : 8;
  return `av01.${b1 >> 5}.${String(b1 & 0x1f).padStart(2, '0')}${b2 & 0x80 ? 'H' : 'M'}.${String(depth).padStart(2, '0')}`;
}

/** mp4a.40.<audio object type> from an esds (ISO 14496-1 descriptors); mp4a.40.2 (AAC LC) when it cannot be read. */
function aac(buf: Uint8Array, esds: Box): string {
  let p = esds.body + 4;
  const descriptor = (): [number, number] => {
    const tag = buf[p++]!;
    let size = 0;
    for (let i = 0; i < 4; i++) {
      const x = buf[p++]!;
      size = (size << 7) | (x & 0x7f);
      if (!(x & 0x80)) break;
    }
    return [tag, size];
  };
  if (descriptor()[0] !== 0x03) return 'mp4a.40.2';
  const flags = buf[p + 2]!;
  p += 3 + (flags & 0x80 ? 2 : 0) + (flags & 0x40 ? 1 + buf[p + 3]! : 0) + (flags & 0x20 ? 2 : 0);
  if (descriptor()[0] !== 0x04) return 'mp4a.40.2';
  const oti = buf[p]!;
  p += 13;
  if (p >= esds.end || descriptor()[0] !== 0x05) return `mp4a.${hex2(oti)}`;
  let aot = buf[p]! >> 3;
  if (aot === 31) aot = 32 + (((buf[p]! & 7) << 3) | (buf[p + 1]! >> 5));
  return `mp4a.${hex2(oti)}.${aot}`;
}

/** One codec string per track of the moov (e.g. "avc1.64001e,mp4a.40.2"); '' when it holds none. */
export function codecsOf(init: Uint8Array): string {
  const moov = boxesIn(init).find((b) => b.type === 'moov');
  if (!moov) return '';
  const out: string[] = [];
  for (const trak of boxesIn(init, moov.body, moov.end).filter((b) => b.type === 'trak')) {
    let at: Box | undefined = trak;
    for (const t of ['mdia', 'minf', 'stbl', 'stsd']) at = at && find(init, at, t);
    const entry = at && boxesIn(init, at.body + 8, at.end)[0];
    if (!entry) continue;
    const type = entry.type;
    const visual = (config: string): Box | undefined => find(init, entry, config, 78);
    if (type === 'avc1' || type === 'avc3') {
      const c = visual('avcC');
      if (c) out.push(avc(type, init, c));
    } else if (type === 'hvc1' || type === 'hev1') {
      const c = visual('hvcC');
      if (c) out.push(hevc(type, init, c));
    } else if (type === 'av01') {
      const c = visual('av1C');
      if (c) out.push(av1(init, c));
    } else if (type === 'mp4a') {
      const esds = find(init, entry, 'esds', 28);
      out.push(esds ? aac(init, esds) : 'mp4a.40.2');
    } else if (type === 'Opus') out.push('opus');
    else out.push(type);
  }
  return out.join(',');
}
