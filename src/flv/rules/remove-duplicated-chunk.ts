// RemoveDuplicatedChunk rule: drops a data group the CDN sent again (same content as one of the last 16).
import { Fingerprint64 } from '../fingerprint.js';
import { TagHashMode, wasmHash } from '../wasm-hash.js';
import type { ProcessingContext, ProcessingRule, SessionItems } from '../pipeline/context.js';
import { fillerType, hevcNalus, nalType } from '../codecs/nal.js';
import { type FlvTag, TagFlag, TagType } from '../tag.js';

export const MAX_HISTORY = 16;
/** More than this many repeated groups in a row ends the live session. */
export const MAX_CONSECUTIVE_DUPLICATES = 10;

class History {
  readonly hi = new Int32Array(MAX_HISTORY);
  readonly lo = new Int32Array(MAX_HISTORY);
  count = 0;
  next = 0;
  consecutive = 0;

  includes(hi: number, lo: number): boolean {
    for (let i = 0; i < this.count; i++) if (this.hi[i] === (hi | 0) && this.lo[i] === (lo | 0)) return true;
    return false;
  }

  add(hi: number, lo: number): void {
    this.hi[this.next] = hi;
    this.lo[this.next] = lo;
    this.next = (this.next + 1) % MAX_HISTORY;
    if (this.count < MAX_HISTORY) this.count++;
  }
}

/**
 * An AVC frame body as its 5-byte prefix and each NALU except filler. Filler is padding: it never tells one
 * chunk from another, and the recorder may already have dropped it when copying the tag out of its read
 * buffer; hashing around it makes a stripped and an unstripped copy of the same frame equal.
 */
function absorbAvcBody(fp: Fingerprint64, body: Uint8Array): void {
  const len = body.length;
  fp.addBytes(body.subarray(0, 5));
  const hevc = hevcNalus(body);
  const filler = fillerType(hevc);
  let pos = 5;
  while (pos + 5 <= len) {
    const size = ((body[pos]! << 24) | (body[pos + 1]! << 16) | (body[pos + 2]! << 8) | body[pos + 3]!) >>> 0;
    const type = nalType(hevc, body[pos + 4]!);
    if (body[pos + 4]! & 0x80) break;
    if (type !== filler) fp.addBytes(body.subarray(pos, Math.min(len, pos + 4 + size)));
    pos += 4 + size;
  }
  if (pos < len) fp.addBytes(body.subarray(pos));
}

const tagFp = new Fingerprint64();
const wasm = wasmHash();

/**
 * One tag body's own 64-bit hash (cached on the tag): AVC/HEVC frames as absorbAvcBody, other bodies whole.
 * The live capture computes it when it copies a held tag into its arena, while the bytes are still in cache;
 * otherwise it is computed here, when the group is fingerprinted. With WebAssembly, the whole walk is one call
 * (the same values as the walk below): a call per NALU, with its view, cost more than hashing the bytes.
 */
export function tagContentHash(t: FlvTag): void {
  const body = t.data;
  if (!body || t.hashHi !== undefined) return;
  const frame = t.type === TagType.Video && (t.flag & TagFlag.Header) === 0 && body.length > 5;
  if (wasm) {
    wasm.tagHash(body, frame ? (hevcNalus(body) ? TagHashMode.Hevc : TagHashMode.Avc) : TagHashMode.Whole);
    // Kept as signed 32-bit values: small integers on 64-bit V8 without pointer compression (Node's builds), where
    // unsigned ones over 2^31 are heap numbers: up to two allocations per tag, for nothing.
    t.hashHi = wasm.result[0]!;
    t.hashLo = wasm.result[1]!;
    return;
  }
  tagFp.reset();
  if (frame) absorbAvcBody(tagFp, body);
  else tagFp.addBytes(body);
  const [hi, lo] = tagFp.digest();
  t.hashHi = hi | 0;
  t.hashLo = lo | 0;
}

/**
 * brec's fingerprint of a group: per tag its DataHash if known, else its body (here: the body's own hash, see
 * tagContentHash), and the tag count; a tag with neither contributes nothing (so hash-less XML groups compare by
 * tag count alone, exactly as in brec). Deviations: filler NALUs inside AVC frames are skipped (see
 * absorbAvcBody), and the count comes last, not first, so that src/flv/fast can mix the tags' hashes as it
 * collects them (the values are only compared within one process).
 */
export function groupFingerprint(fp: Fingerprint64, tags: readonly FlvTag[]): [number, number] {
  for (const t of tags) if (t.dataHash === null) tagContentHash(t);
  fp.reset();
  for (const t of tags) {
    if (t.dataHash !== null) fp.addString(t.dataHash);
    else if (t.data) fp.addInt(t.hashHi!).addInt(t.hashLo!);
  }
  return fp.addInt(tags.length).digest();
}

const historyOf = (session: SessionItems): History => session.get('RemoveDuplicatedChunkRule', () => new History());

/**
 * For a plain data group (see src/flv/fast) whose fingerprint is [hi, lo]: true, and remembered as the rule
 * would, when it repeats none of the recent groups; false (nothing changed) when the full rule must drop it.
 */
export function acceptPlainGroup(session: SessionItems, hi: number, lo: number): boolean {
  const history = historyOf(session);
  if (history.includes(hi, lo)) return false;
  history.add(hi, lo);
  history.consecutive = 0;
  return true;
}

export class RemoveDuplicatedChunkRule implements ProcessingRule {
  /** Plain JS: it mixes a few 32-bit words per tag, where a call into WebAssembly per word costs more. */
  private readonly fp = new Fingerprint64(false);

  run(ctx: ProcessingContext, next: () => void): void {
    ctx.perActionRun((action, out) => {
      if (action.kind !== 'Data') {
        out.push(action);
        return true;
      }
      const history = historyOf(ctx.session);
      const [hi, lo] = groupFingerprint(this.fp, action.tags);
      if (history.includes(hi, lo)) {
        ctx.addComment('RepeatingData', true, '重复数据');
        if (++history.consecutive > MAX_CONSECUTIVE_DUPLICATES) {
          out.push({ kind: 'Disconnect', reason: '连续收到了 10 段重复数据' });
          history.consecutive = 0;
        }
        return true;
      }
      history.add(hi, lo);
      history.consecutive = 0;
      out.push(action);
      return true;
    });
    next();
  }
}

/** The fingerprints of the last kept groups of a session, oldest first (an origin switch compares two connections by them). */
export function recentGroups(session: SessionItems): Array<[number, number]> {
  const h = historyOf(session);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < h.count; i++) {
    const j = (h.next - h.count + i + MAX_HISTORY) % MAX_HISTORY;
    out.push([h.hi[j]!, h.lo[j]!]);
  }
  return out;
}

/** Makes a session treat these groups as already kept: a new connection then drops the GOPs another one already wrote. */
export function seedGroups(session: SessionItems, groups: ReadonlyArray<readonly [number, number]>): void {
  const h = historyOf(session);
  for (const [hi, lo] of groups) if (!h.includes(hi, lo)) h.add(hi, lo);
}
