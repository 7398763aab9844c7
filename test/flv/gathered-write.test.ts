// Gathered writes: large bodies by reference, small ones copied; partial writes resume at the right byte; same file either way.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FlvStream } from '../../src/flv/stream.js';
import { encodeTag } from '../../src/flv/tag-encoding.js';
import { FlvContextWriter } from '../../src/flv/writer/context-writer.js';
import { FlvFileOutput, type FlvFileSystem } from '../../src/flv/writer/file-output.js';
import { TagStager } from '../../src/flv/writer/tag-stager.js';
import { legacyToEnhanced } from '../../src/flv/codecs/video-format.js';
import { clipPath } from '../../src/simulator/clips.js';

/** Real files, but each call writes at most `max` bytes (as a kernel may), counting the calls of each kind. */
function choppyFs(max: number, gather: boolean): FlvFileSystem & { calls: { write: number; writev: number } } {
  const calls = { write: 0, writev: 0 };
  const fs: FlvFileSystem & { calls: typeof calls } = {
    calls,
    openSync: (path, flags) => nodeFs.openSync(path, flags),
    writeSync: (fd, buffer, offset, length, position) => {
      calls.write++;
      return nodeFs.writeSync(fd, buffer, offset, Math.min(length, max), position);
    },
    ftruncateSync: (fd, len) => nodeFs.ftruncateSync(fd, len),
    closeSync: (fd) => nodeFs.closeSync(fd),
  };
  if (gather) {
    fs.writevSync = (fd, buffers, position) => {
      calls.writev++;
      const joined = Buffer.concat(buffers);
      return nodeFs.writeSync(fd, joined, 0, Math.min(joined.length, max), position);
    };
  }
  return fs;
}

function record(input: Buffer, dir: string, fs?: FlvFileSystem, offline = false, hevcForm?: 'enhanced' | 'codec12'): Buffer {
  const output = new FlvFileOutput({ fs, offline, hevcForm, nextPath: ({ index }) => join(dir, `out-${index}.flv`) });
  const writer = new FlvContextWriter(output);
  const stream = new FlvStream({ preset: 'tool', writer });
  for (let pos = 0; pos < input.length; pos += 65_536) expect(stream.push(input.subarray(pos, pos + 65_536)).error).toBeNull();
  stream.end();
  writer.close();
  const files = readdirSync(dir).filter((f) => f.endsWith('.flv'));
  expect(files).toHaveLength(1);
  return readFileSync(join(dir, files[0]!));
}

/** The bodies of an FLV's video tags, in order. */
function videoBodies(flv: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let pos = 13; pos + 11 <= flv.length;) {
    const size = flv.readUIntBE(pos + 1, 3);
    if (flv[pos] === 9) out.push(flv.subarray(pos + 11, pos + 11 + size));
    pos += 11 + size + 4;
  }
  return out;
}

describe('gathered writes', () => {
  it('the stager lists the same bytes as tags encoded one by one, for bodies on both sides of the reference size', () => {
    const stager = new TagStager();
    const bodies = [1, 100, 2047, 2048, 2049, 30_000, 5, 70_000, 3].map((n) => randomBytes(n));
    bodies.forEach((b, i) => {
      expect(stager.fits(b.length)).toBe(true);
      stager.add(i % 2 ? 8 : 9, i * 40, b);
    });
    const expected = Buffer.concat(bodies.map((b, i) => encodeTag(i % 2 ? 8 : 9, i * 40, b)));
    expect(Buffer.concat(stager.bytes()).equals(expected)).toBe(true);
    expect(stager.length).toBe(expected.length);
    expect(stager.referenced).toBe(4);
    stager.reset();
    expect(stager.bytes()).toEqual([]);
  });

  it('a rewritten head goes inline before a body listed by reference or copied, sized as one body', () => {
    const stager = new TagStager();
    const sizes = [0, 3, 2035, 2040, 2041, 2047, 2048, 9000];
    const tags = sizes.map((n, i) => ({ head: randomBytes(i % 2 ? 8 : 5), body: randomBytes(n) }));
    for (const [i, t] of tags.entries()) {
      expect(stager.fits(t.head.length + t.body.length)).toBe(true);
      stager.add(9, i * 40, t.body, t.head);
    }
    const expected = Buffer.concat(tags.map((t, i) => encodeTag(9, i * 40, Buffer.concat([t.head, t.body]))));
    expect(Buffer.concat(stager.bytes()).equals(expected)).toBe(true);
    expect(stager.length).toBe(expected.length);
  });

  it('HEVC written as Enhanced FLV through heads has exactly the converted bodies, live and offline, with and without writev', () => {
    const input = readFileSync(clipPath('clip-360p-hevc.flv'));
    const kept = videoBodies(record(input, mkdtempSync(join(tmpdir(), 'liverec-gather-')), undefined, true, 'codec12'));
    const expected = kept.map((b) => Buffer.from(legacyToEnhanced(b)));
    // Both paths of the stager: bodies listed by reference (2 KiB and more) and bodies copied.
    expect(expected.filter((b) => b.length >= 2048).length).toBeGreaterThan(0);
    expect(expected.filter((b) => b.length < 2048).length).toBeGreaterThan(0);
    for (const offline of [false, true]) {
      for (const gather of [true, false]) {
        const out = videoBodies(record(input, mkdtempSync(join(tmpdir(), 'liverec-gather-')), choppyFs(1000, gather), offline, 'enhanced'));
        expect(out.length).toBe(expected.length);
        expect(out.every((b, i) => b.equals(expected[i]!)), `offline ${offline}, writev ${gather}`).toBe(true);
      }
    }
  });

  it('live and offline outputs write the same file through writev, through writeSync alone, and through 1000-byte partial writes', () => {
    const input = readFileSync(clipPath('clip-360p.flv'));
    const reference = record(input, mkdtempSync(join(tmpdir(), 'liverec-gather-')));
    for (const offline of [false, true]) {
      for (const gather of [true, false]) {
        const fs = choppyFs(1000, gather);
        const out = record(input, mkdtempSync(join(tmpdir(), 'liverec-gather-')), fs, offline);
        expect(out.equals(reference), `offline ${offline}, writev ${gather}`).toBe(true);
        // Every call wrote at most 1000 bytes, so the writer must have resumed each short write.
        expect(fs.calls.write + fs.calls.writev).toBeGreaterThanOrEqual(Math.ceil(out.length / 1000));
        expect(fs.calls.writev > 0).toBe(gather);
      }
    }
  });
});
