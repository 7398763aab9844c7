// Grouping: sample.flv matches brec's grouping expectation; each grouping rule on synthetic streams.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TagGrouper } from '../../src/flv/grouping.js';
import { FlvParser } from '../../src/flv/parser.js';
import type { PipelineAction } from '../../src/flv/pipeline/actions.js';
import type { FlvTag } from '../../src/flv/tag.js';
import { corpus, sampleFlv } from './helpers.js';
import { a, ah, end, gop, script, v, vh } from './tags.js';

function group(tags: readonly FlvTag[]): PipelineAction[] {
  const g = new TagGrouper();
  const out: PipelineAction[] = [];
  for (const t of tags) g.push(t, out);
  g.flush(out);
  return out;
}

const members = (x: PipelineAction): FlvTag[] =>
  x.kind === 'Data' ? x.tags : x.kind === 'Header' ? x.allTags : x.kind === 'Script' || x.kind === 'End' ? [x.tag] : [];

describe('sample.flv grouping', () => {
  it("matches brec's GroupingFromFlv expectation: Script, Header[V,A], two Data groups, End", () => {
    const text = readFileSync(join(corpus, 'Expectations', 'FlvGrouping', 'GroupingFromFlv.Output_path=sample.flv.verified.txt'), 'utf8');
    const expected: { name: string; indexes: number[] }[] = [];
    let indexes: number[] = [];
    for (const line of text.split('\n')) {
      const idx = /Index: (\d+)/.exec(line);
      if (idx) indexes.push(Number(idx[1]));
      const name = /Name: Pipeline(\w+)Action/.exec(line);
      if (name) {
        expected.push({ name: name[1]!, indexes });
        indexes = [];
      }
    }
    const { tags } = new FlvParser().push(readFileSync(sampleFlv));
    const actual = group(tags).map((x) => ({ name: x.kind, indexes: members(x).map((t) => t.index) }));
    expect(actual.map((x) => x.name)).toEqual(['Script', 'Header', 'Data', 'Data', 'End']);
    expect(actual).toEqual(expected);
  });
});

describe('grouping rules', () => {
  it('a data group is one GOP: every video keyframe starts a new one', () => {
    const out = group([...gop(0), ...gop(400), ...gop(800)]);
    expect(out.map((x) => x.kind)).toEqual(['Data', 'Data', 'Data']);
    for (const x of out) expect(members(x)[0]!.flag).toBe(2);
  });

  it('leading audio is folded into the first GOP', () => {
    const out = group([a(0), a(23), ...gop(40)]);
    expect(out).toHaveLength(1);
    expect(members(out[0]!)).toHaveLength(2 + gop(40).length);
  });

  it('a non-keyframe tag 24999 ms or more after the previous one starts a new group', () => {
    expect(group([v(0, true), v(40), v(40 + 24998)]).length).toBe(1);
    expect(group([v(0, true), v(40), v(40 + 24999)]).length).toBe(2);
  });

  it('consecutive headers form one Header group; Script and End are single-tag groups', () => {
    const out = group([script(), vh(), ah(), ah(), ...gop(0), end(400), script()]);
    expect(out.map((x) => x.kind)).toEqual(['Script', 'Header', 'Data', 'End', 'Script']);
    expect(members(out[1]!)).toHaveLength(3);
  });

  it('a late AAC header rides inside the data group while every audio tag so far is a header', () => {
    const withLate = group([v(0, true), v(40), ah(), a(50), a(73)]);
    expect(withLate).toHaveLength(1);
    const afterData = group([v(0, true), a(10), ah(), a(50)]);
    expect(afterData.map((x) => x.kind)).toEqual(['Data', 'Header', 'Data']);
  });
});
