// `liverec tool …` as users run it: the compiled CLI in a child process, real files, ffprobe on the results.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { AmfValue } from '../../src/flv/amf.js';
import { FlvParser } from '../../src/flv/parser.js';
import { FLV_FILE_HEADER, encodeTag } from '../../src/flv/tag-encoding.js';
import { type FlvTag, TagType } from '../../src/flv/tag.js';
import { readXmlFlvFile } from '../../src/flv/xml/xml-reader.js';
import { cliPath, corpus, ffprobePath, fixtureFlv, sampleFlv } from './helpers.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'liverec-flv-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface CliResult { code: number; stdout: string; stderr: string; json: Record<string, unknown> & { status: string } }

async function cli(...args: string[]): Promise<CliResult> {
  let code = 0, stdout = '', stderr = '';
  try {
    ({ stdout, stderr } = await run(process.execPath, [cliPath, 'tool', ...args], { maxBuffer: 64 << 20 }));
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    ({ code, stdout, stderr } = err);
  }
  return { code, stdout, stderr, json: args.includes('--json') ? JSON.parse(stdout) : ({} as CliResult['json']) };
}

async function probe(path: string): Promise<{ stderr: string; duration: number }> {
  const { stdout, stderr } = await run(ffprobePath(), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]);
  return { stderr, duration: Number(stdout.trim()) };
}

/** Decodes packets fully: any damaged frame would be reported. */
async function decodeErrors(path: string): Promise<string> {
  const { stderr } = await run(ffprobePath(), ['-v', 'error', '-show_frames', '-of', 'csv', path], { maxBuffer: 64 << 20 });
  return stderr;
}

function metaOf(path: string): Map<string, AmfValue> {
  const r = new FlvParser().push(readFileSync(path));
  expect(r.error).toBeNull();
  return (r.tags[0]!.script![1] as { value: Map<string, AmfValue> }).value;
}

const fixtureTags = new FlvParser().push(readFileSync(fixtureFlv)).tags;

/** Re-encodes tags into an FLV file (bodies and timestamps as given). */
function writeFlv(path: string, tags: readonly FlvTag[]): Buffer {
  const bytes = Buffer.concat([FLV_FILE_HEADER, ...tags.map((t) => encodeTag(t.type, t.timestamp, t.data!))]);
  writeFileSync(path, bytes);
  return bytes;
}

/** The fixture's tags split at keyframes: [prefix (script + headers), gop1, gop2, …, [end]]. */
function gops(): FlvTag[][] {
  const out: FlvTag[][] = [[]];
  for (const t of fixtureTags) {
    if ((t.type === TagType.Video && t.flag === 2) || t.flag & 4) out.push([]);
    out[out.length - 1]!.push(t);
  }
  return out;
}

describe('tool analyze', () => {
  it('--json on a Bad XML sample prints one JSON object with counts, issues and frame stats', async () => {
    const r = await cli('analyze', '--json', join(corpus, 'TestData', 'Bad', 'p3-mock-20210310-change_header_both.xml'));
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      status: 'OK', outputFileCount: 2, tagCounts: [641, 1067],
      issueCounts: { Other: 0, Unrepairable: 0, TimestampJump: 1, TimestampOffset: 0, DecodingHeader: 1, RepeatingData: 0 },
      video: { frameCount: 665 }, audio: { frameCount: 1036 },
    });
    expect((r.json.video as { fps: number }).fps).toBeCloseTo(30.04, 1);
  });

  it('accepts .xml.gz and several inputs at once (run in parallel, results in input order)', async () => {
    const xml = join(corpus, 'TestData', 'Bad', 'p2-mock-20210310-same_header_both.xml');
    const gz = join(dir, 'same_header_both.xml.gz');
    writeFileSync(gz, gzipSync(readFileSync(xml)));
    const r = await cli('analyze', '--json', xml, gz, sampleFlv);
    expect(r.code).toBe(0);
    const results = r.json.results as { status: string; input: string; tagCounts: number[] }[];
    expect(r.json.status).toBe('OK');
    expect(results.map((x) => [x.input, x.status, x.tagCounts])).toEqual([[xml, 'OK', [1705]], [gz, 'OK', [1705]], [sampleFlv, 'OK', [798]]]);
  });
});

describe('tool fix', () => {
  it('repairs a real H.264/AAC FLV: ffprobe reads it without errors, duration within 1%, onMetaData has keyframes', async () => {
    const base = join(dir, 'clean');
    const r = await cli('fix', fixtureFlv, base, '--json');
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ status: 'OK', outputFileCount: 1, outputFiles: [`${base}.fix_p001.flv`], tagCounts: [fixtureTags.length] });
    const out = `${base}.fix_p001.flv`;
    const [a, b] = [await probe(fixtureFlv), await probe(out)];
    expect(b.stderr).toBe('');
    expect(Math.abs(b.duration - a.duration) / a.duration).toBeLessThan(0.01);
    expect(await decodeErrors(out)).toBe('');
    const kf = (metaOf(out).get('keyframes') as { value: Map<string, { value: unknown[] }> }).value;
    expect(kf.get('times')!.value.length).toBeGreaterThanOrEqual(5);
    expect(kf.get('filepositions')!.value.length).toBe(kf.get('times')!.value.length);
  });

  it('repairs a timestamp jump and a resent GOP in a cut file: reports them, exits non-zero, output plays', async () => {
    const [prefix, ...rest] = gops();
    const body = rest.filter((g) => !(g[0]!.flag & 4));
    const tags: FlvTag[] = [...prefix!];
    body.forEach((g, i) => {
      const shift = i >= 3 ? 90_000 : 0;
      tags.push(...g.map((t) => ({ ...t, timestamp: t.timestamp + shift })));
      if (i === 1) tags.push(...g); // the CDN sends GOP 2 again
    });
    const input = join(dir, 'damaged.flv');
    const bytes = writeFlv(input, tags);
    writeFileSync(input, bytes.subarray(0, bytes.length - 30));
    const base = join(dir, 'damaged-out');
    const r = await cli('fix', input, base, '--json');
    expect(r.code).not.toBe(0);
    expect(r.json).toMatchObject({ status: 'Error', errorCode: 'TRUNCATED', outputFileCount: 1 });
    expect(r.json.issueCounts).toMatchObject({ TimestampJump: 1, RepeatingData: 1 });
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const out = `${base}.fix_p001.flv`;
    expect((await probe(out)).stderr).toBe('');
    expect(await decodeErrors(out)).toBe('');
    const { duration } = await probe(out);
    expect(duration).toBeGreaterThan(9);
    expect(duration).toBeLessThan(10.2);
  });

  it('--out-dir repairs several inputs in parallel', async () => {
    const outDir = join(dir, 'many');
    const copy = join(dir, 'copy.flv');
    copyFileSync(fixtureFlv, copy);
    const r = await cli('fix', fixtureFlv, sampleFlv, copy, '--out-dir', outDir, '--json');
    expect(r.code).toBe(0);
    const files = (r.json.results as { outputFiles: string[] }[]).map((x) => x.outputFiles);
    expect(files).toEqual([[join(outDir, 'h264-aac.fix_p001.flv')], [join(outDir, 'sample.fix_p001.flv')], [join(outDir, 'copy.fix_p001.flv')]]);
    for (const [f] of files) expect((await probe(f!)).stderr).toBe('');
  });

  it('XML input gives .brec.xml outputs that analyse clean', async () => {
    const base = join(dir, 'p3');
    const r = await cli('fix', join(corpus, 'TestData', 'Bad', 'p3-mock-20210310-change_header_video.xml'), base, '--json');
    expect(r.json).toMatchObject({ status: 'OK', outputFiles: [`${base}.fix_p001.brec.xml`, `${base}.fix_p002.brec.xml`] });
    for (const f of r.json.outputFiles as string[]) {
      const again = await cli('analyze', '--json', f);
      expect(again.json).toMatchObject({ status: 'OK', outputFileCount: 1, needFix: false });
    }
  });
});

describe('tool export', () => {
  it('exports sample.flv to XML that reads back as 798 tags and analyses like the FLV', async () => {
    const out = join(dir, 'sample.xml');
    const r = await cli('export', sampleFlv, out, '--json');
    expect(r.json).toMatchObject({ status: 'OK', tagCount: 798 });
    const x = readXmlFlvFile(out);
    expect(x.tags).toHaveLength(798);
    expect(x.meta?.fileSize).toBe(readFileSync(sampleFlv).length);
    expect(x.tags.every((t) => t.type === TagType.Script || /^[0-9A-F]{16}$/.test(t.dataHash ?? ''))).toBe(true);
    const [fromXml, fromFlv] = [await cli('analyze', '--json', out), await cli('analyze', '--json', sampleFlv)];
    expect(fromXml.json.tagCounts).toEqual(fromFlv.json.tagCounts);
    expect(fromXml.json.issueCounts).toEqual(fromFlv.json.issueCounts);
  });
});

describe('bad input: one clear line on stderr, a non-OK status, a non-zero exit, partial output playable', () => {
  const bad = async (name: string, bytes: Buffer | null, status: string): Promise<CliResult> => {
    const input = join(dir, `${name}.flv`);
    if (bytes) writeFileSync(input, bytes);
    const r = await cli('fix', input, join(dir, `${name}-out`), '--json');
    expect(r.json.status).toBe(status);
    expect(r.code).not.toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(input);
    expect(lines[0]).toContain(status);
    return r;
  };

  it('missing file → InputIOError', async () => {
    await bad('missing', null, 'InputIOError');
  });

  it('not FLV → NotFlvFile', async () => {
    await bad('text', Buffer.from('this is not a video\n'.repeat(10)), 'NotFlvFile');
    await bad('empty', Buffer.alloc(0), 'NotFlvFile');
  });

  it('unknown tag type mid-file → UnknownFlvTagType, everything before it written and playable', async () => {
    const bytes = Buffer.from(readFileSync(fixtureFlv));
    let pos = 9;
    for (let i = 0; i < 400; i++) pos += 15 + ((bytes[pos + 5]! << 16) | (bytes[pos + 6]! << 8) | bytes[pos + 7]!);
    bytes[pos + 4] = 0x0f;
    const r = await bad('unknown-type', bytes, 'UnknownFlvTagType');
    const out = (r.json.outputFiles as string[])[0]!;
    expect(existsSync(out)).toBe(true);
    expect((await probe(out)).stderr).toBe('');
    expect(await decodeErrors(out)).toBe('');
    expect((r.json.tagCounts as number[])[0]).toBeGreaterThan(300);
  });

  it('video that is neither AVC nor HEVC (VP6, codec id 4) → UnsupportedCodec', async () => {
    const tags = fixtureTags.map((t, i) => (i === 200 && t.type === TagType.Video ? { ...t, data: Uint8Array.from([0x24, ...t.data!.subarray(1)]) } : t));
    const target = fixtureTags[200]!.type === TagType.Video ? tags : fixtureTags.map((t) => (t.type === TagType.Video && t.flag === 0 ? { ...t, data: Uint8Array.from([0x24, ...t.data!.subarray(1)]) } : t));
    const bytes = Buffer.concat([FLV_FILE_HEADER, ...target.map((t) => encodeTag(t.type, t.timestamp, t.data!))]);
    await bad('vp6', bytes, 'UnsupportedCodec');
  });

  it('truncated file → Error (TRUNCATED), the complete part is repaired and plays', async () => {
    const bytes = readFileSync(fixtureFlv);
    const r = await bad('cut', bytes.subarray(0, Math.floor(bytes.length * 0.6)), 'Error');
    expect(r.json.errorCode).toBe('TRUNCATED');
    expect(await decodeErrors((r.json.outputFiles as string[])[0]!)).toBe('');
  });
});
