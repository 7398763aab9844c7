// The tool's fast path (src/flv/fast): real video and thousands of damaged variants repaired both ways, byte for byte.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlvParser } from '../../src/flv/parser.js';
import { type ProcessFileReport, processFile } from '../../src/flv/process-file.js';
import { TagFlag, TagType } from '../../src/flv/tag.js';
import { generatedMedia } from '../../src/media/generated-media.js';
import { realClipSpec } from '../../src/simulator/real-clips.js';
import { fixtureFlv, rng } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-fast-path-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Both {
  fastGroups: number;
  report: ProcessFileReport;
}

/**
 * Repairs `input` with and without the fast path (with its module loop, or its JavaScript loop: `js`); fails the
 * test unless reports and files are identical.
 */
function both(input: Buffer, label: string, js = false): Both {
  const path = join(dir, 'in.flv');
  writeFileSync(path, input);
  const runs = [false, js ? ('javascript' as const) : true].map((fastPath) => {
    const base = join(dir, fastPath ? 'fast' : 'full');
    const report = processFile({ input: path, outputBase: base, fastPath });
    const files = report.outputFiles.map((f) => readFileSync(f));
    for (const f of report.outputFiles) rmSync(f, { force: true });
    rmSync(`${base}.fix_p001.txt`, { force: true });
    return { report, files };
  });
  const [full, fast] = runs as [(typeof runs)[0], (typeof runs)[0]];
  // After a fatal input error, inputBytes counts what was read before stopping: that depends on read sizes.
  const plain = (r: ProcessFileReport): unknown => ({
    ...r, fastGroups: 0, outputFiles: r.outputFiles.map((f) => f.replace(/(fast|full)\.fix/, 'x.fix')),
    inputBytes: r.errorCode && r.errorCode !== 'TRUNCATED' ? 0 : r.inputBytes,
  });
  expect(plain(fast.report), label).toEqual(plain(full.report));
  expect(full.report.fastGroups, label).toBe(0);
  expect(fast.files.length, label).toBe(full.files.length);
  fast.files.forEach((f, i) => expect(Buffer.compare(f, full.files[i]!), `${label}: file ${i + 1}`).toBe(0));
  return { fastGroups: fast.report.fastGroups, report: fast.report };
}

interface Unit {
  at: number;
  end: number;
  type: number;
  flag: number;
}

/** Unit offsets (PreviousTagSize + tag) of an undamaged FLV file. */
function unitsOf(bytes: Buffer): Unit[] {
  const { tags } = new FlvParser().push(bytes);
  const out: Unit[] = [];
  let at = 9;
  for (const t of tags) {
    out.push({ at, end: at + 15 + t.size, type: t.type, flag: t.flag });
    at += 15 + t.size;
  }
  return out;
}

/** Damage a stream the way CDNs and broken recorders do, at unit boundaries or anywhere. */
function damage(base: Buffer, units: Unit[], r: () => number): Buffer {
  let b = Buffer.from(base);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const keys = units.filter((u) => u.type === TagType.Video && u.flag === TagFlag.Keyframe);
  const ops = 1 + Math.floor(r() * 3);
  for (let i = 0; i < ops; i++) {
    const u = pick(units.slice(3));
    switch (Math.floor(r() * 9)) {
      case 0: {
        // A GOP sent again (the duplicate rule), right after itself or later.
        const k = keys.indexOf(pick(keys));
        const from = keys[k]!.at;
        const to = keys[k + 1]?.at ?? b.length;
        const at = r() < 0.5 ? to : pick(keys).at;
        b = Buffer.concat([b.subarray(0, at), b.subarray(from, to), b.subarray(at)]);
        return b;
      }
      case 1: {
        // A timestamp jump from one unit on (forward or back).
        const delta = pick([-30_000, -1_000, 700, 5_000, 40_000]);
        for (const v of units) {
          if (v.at < u.at || v.end > b.length) continue;
          const p = v.at + 4;
          const ts = (b[p + 4]! << 16) | (b[p + 5]! << 8) | b[p + 6]! | (b[p + 7]! << 24);
          const t = (ts + delta) | 0;
          b[p + 4] = (t >>> 16) & 0xff;
          b[p + 5] = (t >>> 8) & 0xff;
          b[p + 6] = t & 0xff;
          b[p + 7] = (t >>> 24) & 0xff;
        }
        return b;
      }
      case 2: {
        // A NALU turned into filler (RemoveFillerData then changes the body).
        const v = pick(units.filter((x) => x.type === TagType.Video && x.flag !== TagFlag.Header && x.end <= b.length));
        if (v) b[v.at + 15 + 9] = (b[v.at + 15 + 9]! & 0xe0) | 12;
        break;
      }
      case 3: {
        // A unit copied elsewhere: onMetaData, a sequence header, an End tag, or any tag.
        const src = r() < 0.6 ? units[Math.floor(r() * 3)]! : pick(units);
        b = Buffer.concat([b.subarray(0, u.at), b.subarray(src.at, src.end), b.subarray(u.at)]);
        return b;
      }
      case 4: {
        const end = Buffer.from([0, 0, 0, 0, 9, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0x17, 2, 0, 0, 0]);
        b = Buffer.concat([b.subarray(0, u.at), end, b.subarray(u.at)]);
        return b;
      }
      case 5: b = b.subarray(0, Math.floor(r() * b.length)); return b;
      case 6: b = Buffer.concat([b.subarray(0, u.at), b.subarray(u.end)]); return b;
      case 7: b[u.at + 12] = 1 + Math.floor(r() * 200); break; // a StreamID
      default: for (let k = 0; k < 4; k++) b[Math.floor(r() * b.length)] = Math.floor(r() * 256);
    }
  }
  return b;
}

describe('tool fix fast path', () => {
  let real: Buffer;
  let small: Buffer;
  beforeAll(async () => {
    // Real 1080p video: GOPs of ~1 MB, so units are cut by the 256 KiB read slabs many times.
    real = readFileSync(await generatedMedia(realClipSpec(3000)));
    small = readFileSync(await generatedMedia({ width: 640, height: 360, fps: 25, videoKbps: 800, seconds: 12, gop: 25, preset: 'ultrafast' }));
  }, 120_000);

  it('writes the healthy GOPs of real recordings itself, with the bytes and report of the full pipeline', () => {
    const a = both(real, 'real 1080p');
    expect(a.report.status).toBe('OK');
    // 4 GOPs: the first goes the full way, because audio comes before its keyframe (the grouper folds it in).
    expect(a.fastGroups).toBe(3);
    const b = both(small, '360p');
    expect(b.fastGroups).toBe(11);
    // 5 GOPs, all the fast way: the first (judged by the timestamp rule as a file's first group) and the last,
    // which ffmpeg's End tag closes.
    const c = both(readFileSync(fixtureFlv), 'fixture');
    expect(c.fastGroups).toBe(5);
    // The JavaScript loop (used where a tag is larger than a slab) takes the same groups.
    expect(both(real, 'real 1080p, JavaScript loop', true).fastGroups).toBe(3);
  });

  it('1,200 damaged variants: every repair is identical both ways (module or JavaScript loop), and the fast path still takes part', () => {
    const bases = [real, small];
    const unitLists = bases.map(unitsOf);
    let withFast = 0;
    const statuses = new Set<string>();
    for (let i = 0; i < 1_200; i++) {
      const seed = 1 + i;
      const r = rng(seed);
      const k = i % bases.length;
      const input = damage(bases[k]!, unitLists[k]!, r);
      // One variant in four with the JavaScript collecting loop instead of the module's.
      const res = both(input, `seed ${seed}`, i % 4 === 3);
      statuses.add(res.report.status);
      if (res.fastGroups > 0) withFast++;
    }
    expect(withFast).toBeGreaterThan(600);
    expect([...statuses]).toEqual(expect.arrayContaining(['OK', 'Error']));
  }, 300_000);
});

describe('tool fix fast path on a full disk (2 MiB tmpfs)', () => {
  const mount = mkdtempSync(join(tmpdir(), 'liverec-fast-full-'));
  let mounted = false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mount], { stdio: 'pipe' });
    mounted = true;
  } catch {
    // not allowed here: skipped below
  }
  afterAll(() => {
    if (mounted) execFileSync('umount', [mount], { stdio: 'pipe' });
    rmSync(mount, { recursive: true, force: true });
  });

  it.skipIf(!mounted)('ends in OutputIOError with the output closed at its last whole tag', async () => {
    const input = join(dir, 'full-disk-in.flv');
    writeFileSync(input, readFileSync(await generatedMedia(realClipSpec(3000))));
    const report = processFile({ input, outputBase: join(mount, 'out') });
    expect(report.status).toBe('OutputIOError');
    // The fast path wrote a group, then failed in the next one.
    expect(report.fastGroups).toBeGreaterThanOrEqual(1);
    expect(report.outputFiles).toHaveLength(1);
    const bytes = readFileSync(report.outputFiles[0]!);
    const parser = new FlvParser();
    const parsed = parser.push(bytes);
    parser.end();
    expect(parsed.error).toBeNull();
    expect(parser.anomalies.truncatedBytes).toBe(0);
    expect(parsed.tags.length).toBeGreaterThan(10);
  }, 120_000);
});
