// The file writer: lazy open, onMetaData kept current in place, events, text log, typed I/O errors, kill -9.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AmfValue } from '../../src/flv/amf.js';
import { FlvError } from '../../src/flv/errors.js';
import { FlvParser } from '../../src/flv/parser.js';
import { FlvStream } from '../../src/flv/stream.js';
import { type FlvTag, TagType } from '../../src/flv/tag.js';
import { FlvContextWriter } from '../../src/flv/writer/context-writer.js';
import { FlvFileOutput, type FlvFileOutputOptions } from '../../src/flv/writer/file-output.js';
import type { FileClosedInfo } from '../../src/flv/writer/output.js';
import { ffprobePath, fixtureFlv, root } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-flv-writer-'));
afterAll(() => execFileSync('rm', ['-rf', dir]));
const fixture = readFileSync(fixtureFlv);
let n = 0;

function session(options: Partial<FlvFileOutputOptions> = {}, allowMissingHeader = false) {
  const events: string[] = [];
  const closed: FileClosedInfo[] = [];
  const prefix = join(dir, `w${++n}`);
  const output = new FlvFileOutput({
    nextPath: ({ index }) => `${prefix}-${index}.flv`,
    onFileOpened: ({ path }) => events.push(`open ${path}`),
    onFileClosed: (info) => {
      events.push(`close ${info.path}`);
      closed.push(info);
    },
    ...options,
  });
  const writer = new FlvContextWriter(output, { allowMissingHeader });
  const stream = new FlvStream({ preset: 'recording', writer });
  return { stream, writer, output, events, closed, prefix };
}

function readFlv(path: string): { tags: FlvTag[]; meta: Map<string, AmfValue>; bytes: Buffer } {
  const bytes = readFileSync(path);
  const r = new FlvParser().push(bytes);
  expect(r.error).toBeNull();
  const v = r.tags[0]!.script![1]!;
  return { tags: r.tags, meta: (v as { value: Map<string, AmfValue> }).value, bytes };
}

const num = (meta: Map<string, AmfValue>, key: string): number => (meta.get(key) as { value: number }).value;

function keyframes(meta: Map<string, AmfValue>): { times: number[]; positions: number[]; spacer: number; spacerAllNaN: boolean } {
  const kf = (meta.get('keyframes') as { value: Map<string, { value: { value: number }[] }> }).value;
  const spacer = kf.get('spacer')!.value;
  return { times: kf.get('times')!.value.map((x) => x.value), positions: kf.get('filepositions')!.value.map((x) => x.value), spacer: spacer.length, spacerAllNaN: spacer.every((x) => Number.isNaN(x.value)) };
}

/** Every index entry points at a video keyframe tag header inside the file. */
function expectIndexValid(bytes: Buffer, meta: Map<string, AmfValue>): number {
  const { times, positions } = keyframes(meta);
  expect(times.length).toBe(positions.length);
  for (const p of positions) {
    expect(p).toBeLessThan(bytes.length);
    expect([bytes[p], bytes[p + 11]]).toEqual([9, 0x17]);
  }
  return times.length;
}

describe('FlvFileOutput', () => {
  it('opens the file only when data arrives, then writes header, onMetaData, headers and the data', () => {
    const s = session();
    const head = fixture.subarray(0, 13 + 15 + 300);
    s.stream.push(head);
    expect(s.events).toEqual([]);
    s.stream.push(fixture.subarray(head.length));
    s.stream.end();
    s.writer.close();
    const path = `${s.prefix}-1.flv`;
    expect(s.events).toEqual([`open ${path}`, `close ${path}`]);
    const input = new FlvParser().push(fixture).tags;
    const { tags, meta, bytes } = readFlv(path);
    // The End tag follows brec's rule (more than 500 ms before the last data tag: moved to the predicted next timestamp).
    const dataOf = (ts: FlvTag[]) =>
      ts.filter((t) => t.type !== TagType.Script).map((t) => [t.type, t.flag, t.flag & 4 ? 'end' : t.timestamp, Buffer.from(t.data!).toString('hex')]);
    expect(dataOf(tags)).toEqual(dataOf(input));
    const lastData = input.filter((t) => t.type !== TagType.Script && !(t.flag & 5)).at(-1)!;
    expect(num(meta, 'duration')).toBe(lastData.timestamp / 1000);
    expect([num(meta, 'width'), num(meta, 'height'), num(meta, 'framerate'), num(meta, 'filesize')]).toEqual([426, 240, 25, bytes.length]);
    expect(expectIndexValid(bytes, meta)).toBe(5);
    expect(keyframes(meta).times).toEqual([0, 2, 4, 6, 8]);
    expect(keyframes(meta).spacer).toBe(2 * (6300 - 5));
    expect(keyframes(meta).spacerAllNaN).toBe(true);
    expect(s.closed).toEqual([{ path, size: statSync(path).size, duration: lastData.timestamp / 1000 }]);
  });

  it('keeps duration and the keyframe index current on disk while the file is still open', () => {
    const s = session();
    s.stream.push(fixture.subarray(0, Math.floor(fixture.length * 0.7)));
    const { tags, meta, bytes } = readFlv(`${s.prefix}-1.flv`);
    // Numbers are rewritten every 2 s of media, so they trail the written data by less than that.
    const lastTs = tags.at(-1)!.timestamp;
    expect(num(meta, 'duration')).toBeGreaterThan(2);
    expect(lastTs - num(meta, 'duration') * 1000).toBeLessThan(2000);
    expect(num(meta, 'filesize')).toBeLessThanOrEqual(bytes.length);
    // The index is rewritten at the first keyframe and then every 5 s of media.
    expect(expectIndexValid(bytes, meta)).toBeGreaterThanOrEqual(1);
    s.stream.push(fixture.subarray(Math.floor(fixture.length * 0.7), fixture.length - 20));
    const later = readFlv(`${s.prefix}-1.flv`);
    expect(expectIndexValid(later.bytes, later.meta)).toBeGreaterThanOrEqual(3);
    s.writer.close();
  });

  it('lets the caller add onMetaData fields before the first write (after keyframes, like brec)', () => {
    const s = session({ beforeScriptWrite: (map) => map.set('Title', { type: 'String', value: '直播标题' }) });
    s.stream.push(fixture);
    s.writer.close();
    const keys = [...readFlv(`${s.prefix}-1.flv`).meta.keys()];
    expect(keys.at(-1)).toBe('Title');
    expect(keys.indexOf('keyframes')).toBe(keys.length - 2);
  });

  it('an End tag mid-stream starts a new file; every closed file is valid FLV', () => {
    const s = session();
    const end = Buffer.from([0, 0, 0, 0, 9, 0, 0, 5, 0, 0x0f, 0xa0, 0, 0, 0, 0, 0x17, 2, 0, 0, 0]);
    // Split the fixture after its 3rd GOP (tag boundary) and put an End tag there.
    const tags = new FlvParser().push(fixture).tags;
    let pos = 13 - 4;
    let keys = 0;
    for (const t of tags) {
      if (t.flag === 2 && ++keys === 3) break;
      pos += 15 + t.size;
    }
    s.stream.push(fixture.subarray(0, pos));
    s.stream.push(end);
    s.stream.push(fixture.subarray(pos));
    s.stream.end();
    s.writer.close();
    expect(s.closed.map((c) => c.path)).toEqual([`${s.prefix}-1.flv`, `${s.prefix}-2.flv`]);
    for (const c of s.closed) {
      const { meta, bytes } = readFlv(c.path);
      expect(bytes.length).toBe(c.size);
      expectIndexValid(bytes, meta);
    }
    expect(readFlv(`${s.prefix}-2.flv`).tags.find((t) => t.type === TagType.Video && t.flag === 2)!.timestamp).toBe(0);
  });

  it('live outputs of one thread share a stager: interleaved recordings each get exactly their own bytes', () => {
    const a = session();
    const b = session();
    const solo = session();
    // Different chunkings, interleaved: every group of one is flushed before the other writes.
    let pa = 0;
    let pb = 0;
    for (let k = 0; pa < fixture.length || pb < fixture.length; k++) {
      const na = 4000 + ((k * 7919) % 30000);
      const nb = 2500 + ((k * 104729) % 41000);
      a.stream.push(fixture.subarray(pa, pa + na));
      b.stream.push(fixture.subarray(pb, pb + nb));
      pa += na;
      pb += nb;
    }
    solo.stream.push(fixture);
    for (const s of [a, b, solo]) {
      s.stream.end();
      s.writer.close();
    }
    const want = readFileSync(solo.closed[0]!.path);
    for (const s of [a, b]) {
      expect(s.closed).toHaveLength(1);
      expect(readFileSync(s.closed[0]!.path).equals(want)).toBe(true);
    }
  });

  it('writes LogMessageWithLocation to the accompanying .txt (messages before a file opens go to the next one)', () => {
    const s = session();
    s.writer.write([{ kind: 'LogMessageWithLocation', message: 'early message' }]);
    // Everything but the final End tag (which would close the file).
    s.stream.push(fixture.subarray(0, fixture.length - 20));
    s.stream.end();
    s.writer.write([{ kind: 'LogMessageWithLocation', message: 'second message' }]);
    s.writer.close();
    const text = readFileSync(`${s.prefix}-1.txt`, 'utf8');
    expect(text).toMatch(/^此文件内记录了对应的视频文件中可能存在的问题\nliverec \d+\.\d+\.\d+\n\n-----记录开始-----\n/);
    expect(text).toMatch(/视频时间: 00:00:00\.000\n文件位置: \d+ 字节\nearly message\n-----记录结束-----\n/);
    expect(text).toMatch(/视频时间: 00:00:10\.\d{3}\n文件位置: \d+ 字节\nsecond message\n/);
  });

  it('without allowMissingHeader, data before the sequence headers is a MISSING_HEADER error', () => {
    const s = session();
    const tags = new FlvParser().push(fixture).tags;
    const headerEnd = 13 - 4 + tags.slice(0, 3).reduce((p, t) => p + 15 + t.size, 0);
    const noHeaders = Buffer.concat([fixture.subarray(0, 13 - 4), fixture.subarray(headerEnd)]);
    const step = s.stream.push(noHeaders);
    expect(step.error).toBeInstanceOf(FlvError);
    expect(step.error!.code).toBe('MISSING_HEADER');
    expect(s.events).toEqual([]);
    s.writer.close();
  });

  it('a failed write is a typed OUTPUT_IO error; later writes fail fast; close() does not throw', () => {
    const s = session({ nextPath: () => '/dev/full' });
    const step = s.stream.push(fixture);
    expect(step.error?.code).toBe('OUTPUT_IO');
    expect(s.stream.push(fixture.subarray(0, 0)).error).toBeNull();
    expect(() => s.writer.write([{ kind: 'NewFile' }])).toThrow(/failed earlier/);
    expect(() => s.writer.close()).not.toThrow();
  });

  it("openFlags 'wx' refuses to replace an existing file", () => {
    const s = session({ openFlags: 'wx' });
    writeFileSync(`${s.prefix}-1.flv`, 'keep me');
    expect(s.stream.push(fixture).error?.code).toBe('OUTPUT_IO');
    expect(readFileSync(`${s.prefix}-1.flv`, 'utf8')).toBe('keep me');
  });
});

describe('kill -9 while writing', () => {
  const child = `
    import { readFileSync } from 'node:fs';
    import { FlvStream } from ${JSON.stringify(join(root, 'dist/src/flv/stream.js'))};
    import { FlvContextWriter } from ${JSON.stringify(join(root, 'dist/src/flv/writer/context-writer.js'))};
    import { FlvFileOutput } from ${JSON.stringify(join(root, 'dist/src/flv/writer/file-output.js'))};
    import { buildRepeatedFlv } from ${JSON.stringify(join(root, 'dist/bench/flv-input.js'))};
    const [src, out] = process.argv.slice(2);
    buildRepeatedFlv(${JSON.stringify(fixtureFlv)}, src, 3 << 20);
    const bytes = readFileSync(src);
    const writer = new FlvContextWriter(new FlvFileOutput({ nextPath: () => out }), { allowMissingHeader: false });
    const stream = new FlvStream({ preset: 'recording', writer });
    let pos = 0;
    const tick = () => {
      const n = 1000 + Math.floor(Math.random() * 30000);
      stream.push(bytes.subarray(pos, pos + n));
      pos += n;
      process.stdout.write('t');
      if (pos < bytes.length) setTimeout(tick, 1);
    };
    tick();`;

  it('leaves a file that our parser and ffprobe read, with a valid index (several random kill points)', async () => {
    const script = join(dir, 'kill-child.mjs');
    writeFileSync(script, child);
    for (let round = 0; round < 4; round++) {
      const out = join(dir, `killed-${round}.flv`);
      const ticks = 15 + Math.floor(Math.random() * 60);
      await new Promise<void>((resolve, reject) => {
        const p = spawn(process.execPath, [script, join(dir, `src-${round}.flv`), out], { stdio: ['ignore', 'pipe', 'inherit'] });
        let seen = 0;
        p.stdout.on('data', (d: Buffer) => {
          seen += d.length;
          if (seen >= ticks) p.kill('SIGKILL');
        });
        p.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited without being killed (${seen} ticks)`))));
      });
      expect(existsSync(out)).toBe(true);
      const bytes = readFileSync(out);
      const parser = new FlvParser();
      const r = parser.push(bytes);
      parser.end();
      expect(r.error).toBeNull();
      const meta = (r.tags[0]!.script![1] as { value: Map<string, AmfValue> }).value;
      expectIndexValid(bytes, meta);
      const probe = execFileSync(ffprobePath(), ['-v', 'error', '-count_packets', '-show_entries', 'stream=codec_type,nb_read_packets', '-of', 'json', out], { encoding: 'utf8' });
      const streams = (JSON.parse(probe) as { streams: { codec_type: string; nb_read_packets: string }[] }).streams;
      const videoTags = r.tags.filter((t) => t.type === TagType.Video && !(t.flag & 1)).length;
      const video = streams.find((x) => x.codec_type === 'video');
      expect(Number(video?.nb_read_packets ?? 0)).toBeGreaterThanOrEqual(videoTags - 1);
    }
  }, 60_000);
});
