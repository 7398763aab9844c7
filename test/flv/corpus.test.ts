// brec's FLV corpus: every Bad and Good sample through the repair pipeline, compared as brec's own tests do.
import { describe, expect, it } from 'vitest';
import { TagType } from '../../src/flv/tag.js';
import { flvToXml } from '../../src/flv/xml/xml-writer.js';
import {
  badExpectation, cloneForRerun, goodExpectation, hasLinearPair, loadSample, normaliseXml, requiredCounts, runPipeline, samples, tagShape,
} from './helpers.js';

/** brec's AssertTagsByRerunPipeline: an output file fed back in comes out the same, with nothing to repair. */
function expectRerunIdempotent(file: ReturnType<typeof runPipeline>['files'][number]): void {
  const again = runPipeline(cloneForRerun(file));
  expect(requiredCounts(again.comments)).toEqual([]);
  expect(again.logs).toEqual([]);
  expect(again.tagCounts).toEqual([file.length]);
  expect(again.files[0]!.map((t) => tagShape(t, false))).toEqual(file.map((t) => tagShape(t, false)));
}

describe('Bad samples', () => {
  it('the corpus copy holds the 8 public Bad samples', () => {
    expect(samples('Bad')).toHaveLength(8);
  });

  for (const name of samples('Bad')) {
    describe(name, () => {
      const exp = badExpectation(name);
      const run = runPipeline(loadSample('Bad', name));

      it('output file count, per-file tag counts, required comments and text logs match', () => {
        expect(run.tagCounts).toEqual(exp.json.TagCounts);
        expect(requiredCounts(run.comments)).toEqual(exp.json.Comments);
        expect(run.logs.map((l) => `${l.duration}\n${l.message}`)).toEqual(exp.json.AccompanyingTextLogs);
      });

      it('every output tag matches: Type, Flag, Size, Timestamp, NALUs, header bytes', () => {
        expect(run.files).toHaveLength(exp.files.length);
        run.files.forEach((file, i) => {
          expect(file.map((t) => tagShape(t, false))).toEqual(exp.files[i]!.map((t) => tagShape(t, false)));
        });
      });

      it('script tags match semantically; with several files each has its own duration (more correct than brec)', () => {
        run.files.forEach((file, i) => {
          const ours = tagShape(file[0]!).script as [unknown, { Value: Record<string, { Value: unknown }> }];
          const theirs = tagShape(exp.files[i]![0]!).script as typeof ours;
          if (run.files.length > 1) {
            // brec's list writer keeps one shared script object, so every file shows the LAST file's duration
            // (13.813 in both change_header outputs). We give each file the timestamp of its own last tag.
            const lastData = file.filter((t) => t.type !== TagType.Script && !(t.flag & (1 | 4))).at(-1)!;
            expect(ours[1].Value.duration!.Value).toBe(lastData.timestamp / 1000);
            ours[1].Value.duration = theirs[1].Value.duration!;
          }
          expect(ours).toEqual(theirs);
        });
      });

      it('output XML is byte-identical to the verified XML (except the per-file duration noted above)', () => {
        run.files.forEach((file, i) => {
          if (run.files.length === 1) expect(normaliseXml(flvToXml(file))).toBe(normaliseXml(exp.xml[i]!));
        });
      });

      it('has linear timestamps, and re-running the pipeline on each output changes nothing', () => {
        for (const file of run.files) {
          expect(hasLinearPair(file)).toBe(true);
          expectRerunIdempotent(file);
        }
      });
    });
  }
});

describe('Good samples', () => {
  it('the corpus copy holds the 5 Good samples', () => {
    expect(samples('Good')).toHaveLength(5);
  });

  for (const name of samples('Good')) {
    describe(name, () => {
      const input = loadSample('Good', name);
      const exp = goodExpectation(name);

      const check = (run: ReturnType<typeof runPipeline>): void => {
        expect(run.logs).toEqual([]);
        expect(run.tagCounts).toEqual([input.length]);
        const out = run.files[0]!;
        expect(normaliseXml(flvToXml(out))).toBe(normaliseXml(exp.xml));
        // ShouldHaveFullHeaderTags / ShouldHaveSingleHeaderTagPerType
        expect(out.slice(0, 4).map((t) => [t.type, t.flag, t.timestamp])).toEqual([[18, 0, 0], [9, 3, 0], [8, 1, 0], [9, 2, 0]]);
        expect(out.filter((t) => t.type === TagType.Script)).toHaveLength(1);
        expect(out.filter((t) => t.flag & 1)).toHaveLength(2);
        expect(hasLinearPair(out)).toBe(true);
        // ShouldAlmostEqual: data tags keep their timestamps; End tags stay End.
        const inData = input.filter((t) => t.type !== TagType.Script && !(t.flag & 1));
        const outData = out.filter((t) => t.type !== TagType.Script && !(t.flag & 1));
        expect(outData.map((t) => [t.type, t.flag])).toEqual(inData.map((t) => [t.type, t.flag]));
        outData.forEach((t, i) => {
          if (!(t.flag & 4)) expect(t.timestamp).toBe(inData[i]!.timestamp);
        });
        expectRerunIdempotent(out);
      };

      it('StandardTest: one file, the same tags, no required comments', () => {
        const run = runPipeline(loadSample('Good', name));
        expect(requiredCounts(run.comments)).toEqual([]);
        check(run);
      });

      it('WithOffsetTest: every tag shifted by ±501…9998 ms gives exactly one TimestampJump and the same output', () => {
        expect(goodExpectation(name, 'WithOffsetTest').xml).toBe(exp.xml);
        const offsets = [501, -501, 9998, -9998, ...Array.from({ length: 4 }, () => (Math.random() < 0.5 ? -1 : 1) * (501 + Math.floor(Math.random() * 9498)))];
        for (const offset of offsets) {
          const shifted = loadSample('Good', name).map((t) => ({ ...t, timestamp: t.timestamp + offset }));
          const run = runPipeline(shifted);
          expect(requiredCounts(run.comments), `offset ${offset}`).toEqual([{ Type: 'TimestampJump', Count: 1 }]);
          check(run);
        }
      });
    });
  }
});
