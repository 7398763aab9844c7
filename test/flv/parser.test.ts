// The push parser: sample.flv (798 tags, byte-identical rewrite), any chunk boundaries, typed errors.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FlvError } from '../../src/flv/errors.js';
import { FlvParser, type ParseResult } from '../../src/flv/parser.js';
import { FLV_FILE_HEADER, encodeTag, encodeTagBody } from '../../src/flv/tag-encoding.js';
import { type FlvTag, TagFlag, TagType, describeTag } from '../../src/flv/tag.js';
import { flvToXml } from '../../src/flv/xml/xml-writer.js';
import { corpus, normaliseXml, sampleFlv } from './helpers.js';

const sample = readFileSync(sampleFlv);

function parseInChunks(bytes: Uint8Array, sizes: () => number): { tags: FlvTag[]; error: FlvError | null; parser: FlvParser } {
  const parser = new FlvParser();
  const tags: FlvTag[] = [];
  let error: FlvError | null = null;
  const take = (r: ParseResult): void => {
    tags.push(...r.tags);
    error ??= r.error;
  };
  for (let pos = 0; pos < bytes.length && !error; ) {
    const n = Math.max(1, sizes());
    // Copy each chunk, as a network reader would hand over fresh buffers.
    take(parser.push(Uint8Array.from(bytes.subarray(pos, pos + n))));
    pos += n;
  }
  take(parser.end());
  return { tags, error, parser };
}

const tagKey = (t: FlvTag): string =>
  `${describeTag(t)}|${t.index}|${t.nalus?.map((n) => `${n.start}:${n.fullSize}:${n.type}`).join(',')}|${Buffer.from(t.data ?? []).toString('hex')}`;

describe('sample.flv', () => {
  const { tags, error } = parseInChunks(sample, () => sample.length);

  it('parses into 798 tags of the expected kinds', () => {
    expect(error).toBeNull();
    expect(tags).toHaveLength(798);
    const count = (f: (t: FlvTag) => boolean): number => tags.filter(f).length;
    expect(count((t) => t.type === TagType.Audio && t.flag === TagFlag.None)).toBe(483);
    expect(count((t) => t.type === TagType.Video && t.flag === TagFlag.None)).toBe(309);
    expect(count((t) => t.type === TagType.Video && t.flag === TagFlag.Keyframe)).toBe(2);
    expect(count((t) => t.type === TagType.Script)).toBe(1);
    expect(count((t) => t.type === TagType.Video && t.flag === (TagFlag.Header | TagFlag.Keyframe))).toBe(1);
    expect(count((t) => t.type === TagType.Audio && t.flag === TagFlag.Header)).toBe(1);
    expect(count((t) => t.flag === (TagFlag.Keyframe | TagFlag.End))).toBe(1);
    expect(tags.map((t) => t.index)).toEqual(Array.from({ length: 798 }, (_, i) => i + 1));
  });

  it("matches brec's parser expectation (XmlOutput) exactly", () => {
    const expected = readFileSync(join(corpus, 'Expectations', 'FlvParser', 'XmlOutput.Output_path=sample.flv.verified.xml'), 'utf8');
    expect(normaliseXml(flvToXml(tags))).toBe(normaliseXml(expected));
  });

  it('writing the parsed tags back gives a byte-identical file', () => {
    const parts = [FLV_FILE_HEADER, ...tags.map((t) => encodeTag(t.type, t.timestamp, encodeTagBody(t)))];
    const out = Buffer.concat(parts);
    expect(out.equals(sample)).toBe(true);
    expect(out.equals(readFileSync(join(corpus, 'Expectations', 'FlvWriter', 'Output.Output_path=sample.flv.verified.flv')))).toBe(true);
  });

  it('gives the same tags for random chunk sizes, including 1-byte chunks', () => {
    const reference = tags.map(tagKey);
    const sizes: (() => number)[] = [() => 1, () => 7, () => 15, () => 1 + Math.floor(Math.random() * 64), () => 1 + Math.floor(Math.random() * 20000)];
    for (const size of sizes) {
      const r = parseInChunks(sample, size);
      expect(r.error).toBeNull();
      expect(r.parser.anomalies.truncatedBytes).toBe(0);
      expect(r.tags.map(tagKey)).toEqual(reference);
      expect(r.parser.bytesConsumed).toBe(sample.length - 4);
    }
  });

  it('hands out views into the pushed chunk, not copies, for tags inside one chunk', () => {
    const parser = new FlvParser();
    const r = parser.push(sample);
    expect(r.tags[1]!.data!.buffer).toBe(sample.buffer);
  });

  it('detach() lets the caller reuse a chunk buffer that still holds an incomplete tag', () => {
    const parser = new FlvParser();
    const chunk = Buffer.from(sample.subarray(0, 5000));
    const first = parser.push(chunk).tags.length;
    parser.detach(chunk.buffer);
    chunk.fill(0xee);
    const rest = parser.push(sample.subarray(5000)).tags;
    expect(first + rest.length).toBe(798);
    expect(rest.map(tagKey)).toEqual(tags.slice(first).map(tagKey));
  });
});

describe('typed errors and anomalies', () => {
  const errorOf = (bytes: Uint8Array): FlvError | null => parseInChunks(bytes, () => 3).error;

  it('NOT_FLV for a wrong signature, UNSUPPORTED_FLV_HEADER for a header length other than 9', () => {
    expect(errorOf(Buffer.from('GIF89a.....................'))?.code).toBe('NOT_FLV');
    const h = Buffer.from(sample.subarray(0, 100));
    h[8] = 10;
    expect(errorOf(h)?.code).toBe('UNSUPPORTED_FLV_HEADER');
  });

  it('the audio/video flags byte is not checked', () => {
    const h = Buffer.from(sample);
    h[4] = 0;
    expect(parseInChunks(h, () => 999).tags).toHaveLength(798);
  });

  it('UNKNOWN_TAG_TYPE keeps the tags before it', () => {
    const bytes = Buffer.from(sample);
    // Tag #4 starts after header(9) + 3 tags; find its offset by walking sizes.
    let pos = 9;
    for (let i = 0; i < 3; i++) pos += 15 + ((bytes[pos + 5]! << 16) | (bytes[pos + 6]! << 8) | bytes[pos + 7]!);
    bytes[pos + 4] = 7;
    const r = parseInChunks(bytes, () => 4096);
    expect(r.error?.code).toBe('UNKNOWN_TAG_TYPE');
    expect(r.error).toBeInstanceOf(FlvError);
    expect(r.tags).toHaveLength(3);
  });

  it('UNSUPPORTED_CODEC for video other than AVC/HEVC; non-AAC audio is accepted', () => {
    const tag = (type: number, body: number[]): Buffer => Buffer.concat([Buffer.from([0, 0, 0, 0]), encodeTag(type, 0, Buffer.from(body)).subarray(0, -4)]);
    const mp3 = Buffer.concat([FLV_FILE_HEADER.subarray(0, 9), tag(8, [0x2f, 1, 2, 3])]);
    const r = parseInChunks(mp3, () => 100);
    expect(r.error).toBeNull();
    expect(r.tags[0]!.flag).toBe(TagFlag.None);
    const vp6 = Buffer.concat([FLV_FILE_HEADER.subarray(0, 9), tag(9, [0x14, 1, 0, 0, 0])]);
    expect(errorOf(vp6)?.code).toBe('UNSUPPORTED_CODEC');
    const av1 = Buffer.concat([FLV_FILE_HEADER.subarray(0, 9), tag(9, [0x91, 0x61, 0x76, 0x30, 0x31, 0, 0, 0])]);
    expect(errorOf(av1)?.code).toBe('UNSUPPORTED_CODEC');
  });

  it('a cut trailing tag is dropped and counted; an empty stream is TRUNCATED', () => {
    const r = parseInChunks(sample.subarray(0, sample.length - 7), () => 5000);
    expect(r.error).toBeNull();
    expect(r.tags).toHaveLength(797);
    expect(r.parser.anomalies.truncatedBytes).toBeGreaterThan(4);
    expect(parseInChunks(new Uint8Array(0), () => 1).error?.code).toBe('TRUNCATED');
    expect(parseInChunks(sample.subarray(0, 5), () => 1).error?.code).toBe('NOT_FLV');
  });

  it('counts undecodable script bodies and unparsable NALU lists instead of failing', () => {
    const script = Buffer.concat([Buffer.from([0, 0, 0, 0]), encodeTag(18, 0, Buffer.from([2, 0, 9, 0x61])).subarray(0, -4)]);
    const badNalu = Buffer.concat([Buffer.from([0, 0, 0, 0]), encodeTag(9, 0, Buffer.from([0x27, 1, 0, 0, 0, 0, 0, 0, 1, 0x81])).subarray(0, -4)]);
    const r = parseInChunks(Buffer.concat([FLV_FILE_HEADER.subarray(0, 9), script, badNalu, Buffer.from([0, 0, 0, 0])]), () => 2);
    expect(r.error).toBeNull();
    expect(r.tags[0]!.script).toBeNull();
    expect(r.tags[1]!.nalus).toBeNull();
    expect(r.parser.anomalies).toEqual({ truncatedBytes: 0, badNalus: 1, badScripts: 1 });
  });

  it('reads extended timestamps as signed 32-bit', () => {
    const body = Buffer.from([0xaf, 1, 0x21]);
    const t = encodeTag(8, -5, body);
    const r = parseInChunks(Buffer.concat([FLV_FILE_HEADER.subarray(0, 9), Buffer.from([0, 0, 0, 0]), t]), () => 1);
    expect(r.tags[0]!.timestamp).toBe(-5);
  });
});
