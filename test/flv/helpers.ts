// Shared helpers for the FLV tests: corpus paths, brec expectation parsing, running the pipeline, ffprobe.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { amfToJson } from '../../src/flv/amf-json.js';
import { cliEntry, packageRoot } from '../../src/paths.js';
import type { ProcessingComment } from '../../src/flv/pipeline/actions.js';
import { FlvStream } from '../../src/flv/stream.js';
import type { FlvTag } from '../../src/flv/tag.js';
import { FlvContextWriter } from '../../src/flv/writer/context-writer.js';
import { FlvListOutput, type ListLogEntry } from '../../src/flv/writer/list-output.js';
import { parseXmlFlv, readXmlFlvFile } from '../../src/flv/xml/xml-reader.js';

export const root = packageRoot;
export const corpus = join(root, 'test', 'fixtures', 'brec-flv');
export const fixtureFlv = join(root, 'test', 'fixtures', 'media', 'h264-aac.flv');
export const sampleFlv = join(corpus, 'TestData', 'Flv', 'sample.flv');
export const cliPath = cliEntry;

export function samples(kind: 'Bad' | 'Good'): string[] {
  return readdirSync(join(corpus, 'TestData', kind)).filter((f) => f.endsWith('.xml')).sort();
}

export function loadSample(kind: 'Bad' | 'Good', name: string): FlvTag[] {
  return readXmlFlvFile(join(corpus, 'TestData', kind, name)).tags;
}

const stripBom = (s: string): string => s.replace(/^\uFEFF/, '');

/** A Bad expectation: the JSON head and each output file's tags. */
export interface BadExpectation {
  json: { TagCounts: number[]; Comments: { Type: string; Count: number }[]; AccompanyingTextLogs: string[] };
  files: FlvTag[][];
  xml: string[];
}

export function badExpectation(name: string): BadExpectation {
  const text = stripBom(readFileSync(join(corpus, 'Expectations', 'Bad', `TestBadSamples.Output_path=${name}.verified.txt`), 'utf8'));
  const cut = text.indexOf('<?xml');
  const xml = text.slice(cut).split('<?xml').slice(1).map((x) => `<?xml${x}`);
  return { json: JSON.parse(text.slice(0, cut)), files: xml.map((x) => parseXmlFlv(x).tags), xml };
}

export function goodExpectation(name: string, variant: 'StandardTest' | 'WithOffsetTest' = 'StandardTest'): { xml: string; tags: FlvTag[] } {
  const xml = stripBom(readFileSync(join(corpus, 'Expectations', 'Good', `${variant}.Output_path=${name}.verified.xml`), 'utf8'));
  return { xml, tags: parseXmlFlv(xml).tags };
}

/** Compares XML text the way brec's Verify files are laid out, ignoring the BOM and the declared encoding. */
export function normaliseXml(s: string): string {
  return stripBom(s).replace('encoding="utf-16"', 'encoding="utf-8"').trim();
}

export interface PipelineRun {
  files: FlvTag[][];
  tagCounts: number[];
  comments: ProcessingComment[];
  logs: ListLogEntry[];
}

/** brec's RunPipeline: test chain (FfmpegDetection + defaults + filler removal), list writer, missing headers allowed. */
export function runPipeline(tags: readonly FlvTag[]): PipelineRun {
  const out = new FlvListOutput();
  const writer = new FlvContextWriter(out, { allowMissingHeader: true });
  const stream = new FlvStream({ preset: 'plain', writer });
  const step = stream.pushTags(tags, true);
  writer.close();
  if (step.error) throw step.error;
  return { files: out.files, tagCounts: out.tagCounts, comments: step.groups.flatMap((g) => g.comments), logs: out.logs };
}

/** Required comments grouped by type in first-occurrence order, as brec's Bad test JSON. */
export function requiredCounts(comments: readonly ProcessingComment[]): { Type: string; Count: number }[] {
  const m = new Map<string, number>();
  for (const c of comments) if (c.required) m.set(c.type, (m.get(c.type) ?? 0) + 1);
  return [...m].map(([Type, Count]) => ({ Type, Count }));
}

/** The per-tag fields brec's tests compare (§5.3), as plain data for toEqual. */
export function tagShape(t: FlvTag, withScript = true): Record<string, unknown> {
  const shape: Record<string, unknown> = { type: t.type, flag: t.flag, size: t.size, timestamp: t.timestamp };
  if (t.nalus) shape.nalus = t.nalus.map((n) => [n.start, n.fullSize, n.type]);
  if (t.flag & 1 && t.data) shape.binary = Buffer.from(t.data).toString('hex');
  if (withScript && t.script) shape.script = JSON.parse(amfToJson(t.script));
  return shape;
}

/** brec's ShouldHaveLinearTimestamps: some adjacent pair is ordered and less than 50 ms apart. */
export function hasLinearPair(tags: readonly FlvTag[]): boolean {
  for (let i = 1; i < tags.length; i++) {
    const a = tags[i - 1]!.timestamp;
    const b = tags[i]!.timestamp;
    if (a <= b && b - a < 50) return true;
  }
  return false;
}

/** Clones for a rerun (the pipeline mutates timestamps). */
export function cloneForRerun(tags: readonly FlvTag[]): FlvTag[] {
  return tags.map((t) => ({
    type: t.type, flag: t.flag, size: t.size, timestamp: t.timestamp, index: t.index,
    data: t.data ? t.data.slice() : null, nalus: t.nalus ? t.nalus.map((n) => ({ ...n })) : null,
    dataHash: t.dataHash, script: t.script,
  }));
}

/** The ffprobe binary (shared helper: the exec bit may be missing for non-owners). */
export { ffprobeBin as ffprobePath } from '../support/media-tools.js';

/** Deterministic PRNG (xorshift32) so a failing mutation can be replayed from its seed. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}
