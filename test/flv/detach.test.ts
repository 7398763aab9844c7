// Reused read buffers: detaching copies what the grouper holds, drops filler, and changes neither fingerprint nor output.
import { describe, expect, it } from 'vitest';
import { Fingerprint64 } from '../../src/flv/fingerprint.js';
import { TagGrouper } from '../../src/flv/grouping.js';
import { FlvParser } from '../../src/flv/parser.js';
import { ParsedTag } from '../../src/flv/parsed-tag.js';
import type { PipelineAction } from '../../src/flv/pipeline/actions.js';
import { groupFingerprint } from '../../src/flv/rules/remove-duplicated-chunk.js';
import { RemoveFillerDataRule } from '../../src/flv/rules/remove-filler-data.js';
import { FLV_FILE_HEADER, encodeTag, encodeTagBody } from '../../src/flv/tag-encoding.js';
import type { FlvTag } from '../../src/flv/tag.js';

const nalu = (type: number, size: number, fill: number): Buffer => {
  const b = Buffer.alloc(4 + size, fill);
  b.writeUInt32BE(size, 0);
  b[4] = type;
  return b;
};
/** An AVC inter frame: slice, filler padding, SEI. */
const frame = (seed: number, filler: number): Buffer =>
  Buffer.concat([Buffer.from([0x27, 1, 0, 0, 0]), nalu(1, 300, seed), nalu(12, filler, 0xff), nalu(6, 20, seed + 1)]);
const keyframe = (): Buffer => Buffer.concat([Buffer.from([0x17, 1, 0, 0, 0]), nalu(5, 500, 7)]);

function stream(): Buffer {
  const parts: Buffer[] = [Buffer.from(FLV_FILE_HEADER)];
  parts.push(encodeTag(9, 0, keyframe()));
  for (let i = 1; i <= 10; i++) parts.push(encodeTag(9, i * 40, frame(i, 2000 + i)));
  parts.push(encodeTag(9, 440, keyframe()));
  return Buffer.concat(parts);
}

/** Feeds `bytes` through one reused read buffer, detaching after every read and scribbling over the buffer. */
function readThrough(bytes: Buffer, readSize: number, stripFiller: boolean): { out: PipelineAction[]; read: Uint8Array } {
  const read = new Uint8Array(readSize);
  const parser = new FlvParser({ stripFillerOnCopy: stripFiller });
  const grouper = new TagGrouper();
  const out: PipelineAction[] = [];
  for (let pos = 0; pos < bytes.length; pos += read.length) {
    const n = Math.min(read.length, bytes.length - pos);
    read.set(bytes.subarray(pos, pos + n));
    for (const t of parser.push(read.subarray(0, n)).tags) grouper.push(t, out);
    parser.detach(read.buffer);
    grouper.detach(read.buffer, stripFiller);
    read.fill(0xee);
  }
  grouper.flush(out);
  return { out, read };
}

describe('detaching tags from a reused read buffer', () => {
  it('copies the held GOP without filler; fingerprint and written bytes equal the unstripped path', () => {
    const bytes = stream();
    // Reference: whole input in its own memory, nothing detached.
    const refParser = new FlvParser();
    const refTags = refParser.push(bytes).tags;
    const refGop = refTags.slice(0, 11);

    // Live path: one reused 4 KiB read buffer.
    const { out, read } = readThrough(bytes, 4096, true);
    const gop = (out.find((a) => a.kind === 'Data') as { tags: FlvTag[] }).tags;
    expect(gop).toHaveLength(11);
    for (const t of gop) expect(t.data!.buffer).not.toBe(read.buffer);
    expect(gop.slice(1).map((t) => t.data!.length < t.size)).toEqual(Array(10).fill(true)); // filler gone, straddling or not
    expect(gop.slice(1).every((t) => t instanceof ParsedTag)).toBe(true);

    const fp = new Fingerprint64();
    expect(groupFingerprint(fp, gop)).toEqual(groupFingerprint(fp, refGop));
    // What the writer would emit: the reference after RemoveFillerData equals the detached tags as they are.
    const ctx = { actions: [{ kind: 'Data', tags: refGop }] } as never;
    new RemoveFillerDataRule().run(ctx, () => undefined);
    expect(gop.map((t) => Buffer.from(encodeTagBody(t)))).toEqual(refGop.map((t) => Buffer.from(encodeTagBody(t))));
    expect(gop.map((t) => t.size)).toEqual(refGop.map((t) => t.size)); // brec's Size is the input size
  });

  it('without stripFillerOnCopy (tools), detached tags keep exactly the bytes that were read', () => {
    const bytes = stream();
    const reference = new FlvParser().push(bytes).tags.map((t) => Buffer.from(t.data!));
    const { out } = readThrough(bytes, 1500, false); // smaller than a frame: every frame straddles reads
    const tags = out.flatMap((a) => (a.kind === 'Data' ? a.tags : []));
    expect(tags.map((t) => Buffer.from(t.data!))).toEqual(reference);
  });
});
