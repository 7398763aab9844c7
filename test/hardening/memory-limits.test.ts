// Bounded grouping and the largest-tag limit: a stream without keyframes cannot make a capture hold unbounded memory.
import { describe, expect, it } from 'vitest';
import { captureLimits, PER_TAG_COST } from '../../src/flv/group-limits.js';
import { TagGrouper } from '../../src/flv/grouping.js';
import { FlvParser } from '../../src/flv/parser.js';
import type { PipelineAction } from '../../src/flv/pipeline/actions.js';
import { FlvStream } from '../../src/flv/stream.js';
import { FLV_FILE_HEADER, encodeTag } from '../../src/flv/tag-encoding.js';
import { TagType } from '../../src/flv/tag.js';
import { a, gop, v } from '../flv/tags.js';

describe('bounded grouping', () => {
  it('ends a keyframe-less data group at its byte cap and counts it', () => {
    const g = new TagGrouper({ maxBytes: 10 * (4 + PER_TAG_COST), maxTags: 1e9, maxDurationMs: 1e9 });
    const out: PipelineAction[] = [];
    for (let i = 0; i < 95; i++) g.push(a(i * 23), out);
    g.flush(out);
    expect(out.map((x) => (x.kind === 'Data' ? x.tags.length : -1))).toEqual([10, 10, 10, 10, 10, 10, 10, 10, 10, 5]);
    expect(g.meter!.capped).toBe(9);
  });

  it('ends a data group at its duration and tag caps', () => {
    const byTime = new TagGrouper({ maxBytes: 1e12, maxTags: 1e9, maxDurationMs: 1000 });
    const byCount = new TagGrouper({ maxBytes: 1e12, maxTags: 7, maxDurationMs: 1e9 });
    const outT: PipelineAction[] = [];
    const outC: PipelineAction[] = [];
    for (let i = 0; i < 100; i++) {
      byTime.push(v(i * 40), outT); // inter frames only, never a keyframe
      byCount.push(v(i * 40), outC);
    }
    expect(outT.length).toBe(3); // 0..1000, 1040..2040, 2080..3080 emitted; the rest still open
    expect(outC.every((x) => x.kind === 'Data' && x.tags.length === 7)).toBe(true);
  });

  it('leaves ordinary GOPs untouched (one group per keyframe)', () => {
    const limits = captureLimits(64);
    const g = new TagGrouper(limits.group);
    const out: PipelineAction[] = [];
    for (let k = 0; k < 5; k++) for (const t of gop(k * 2000, 50)) g.push(t, out);
    g.flush(out);
    expect(out.length).toBe(5);
    expect(g.meter!.capped).toBe(0);
  });

  it('keeps a capture under its budget with endless audio tags, writing groups as they close', () => {
    const limits = captureLimits(8);
    const stream = new FlvStream({ preset: 'plain', maxTagBytes: limits.maxTagBytes, groupLimits: limits.group });
    stream.push(FLV_FILE_HEADER);
    const tag = encodeTag(TagType.Audio, 0, new Uint8Array(64 * 1024).fill(0xaf));
    let groups = 0;
    let peak = 0;
    for (let i = 0; i < 400; i++) {
      tag.writeUIntBE(i * 23, 4, 3); // timestamp (header offset 4)
      groups += stream.push(tag).groups.length;
      peak = Math.max(peak, stream.heldBytes);
    }
    expect(groups).toBeGreaterThan(0);
    expect(peak).toBeLessThan(limits.budgetBytes);
  });
});

describe('largest tag', () => {
  it('refuses an oversized tag from its header alone, keeping the tags before it', () => {
    const small = encodeTag(TagType.Audio, 0, new Uint8Array([0xaf, 1, 2, 3]));
    const huge = Buffer.from(encodeTag(TagType.Audio, 23, new Uint8Array(0)));
    huge.writeUIntBE(0xffffff, 1, 3); // declares 16 MiB; no body follows
    const p = new FlvParser({ maxTagBytes: 1024 * 1024 });
    const bytes = Buffer.concat([FLV_FILE_HEADER, small, huge.subarray(0, 15)]);
    // Split inside the big tag's header so the held-bytes path is used too.
    const r1 = p.push(bytes.subarray(0, bytes.length - 5));
    const r2 = p.push(bytes.subarray(bytes.length - 5));
    expect(r1.tags.length + r2.tags.length).toBe(1);
    expect(r2.error?.code).toBe('TAG_TOO_LARGE');
    expect(p.heldBytes).toBeLessThan(64 * 1024 + 100);
  });

  it('accepts any size without a limit (files and tools, as brec)', () => {
    const p = new FlvParser();
    const big = encodeTag(TagType.Audio, 0, new Uint8Array(9 * 1024 * 1024).fill(0xaf));
    const r = p.push(Buffer.concat([FLV_FILE_HEADER, big]));
    expect(r.error).toBeNull();
    expect(r.tags.length).toBe(1);
  });
});
