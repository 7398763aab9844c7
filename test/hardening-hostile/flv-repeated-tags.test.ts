// Issue 36, FLV row (unit): a chunk of tags resent mid-GOP leaves no channel going back in time after the repair
// (liverec goes beyond brec here: brec drops only whole repeated groups, and its corpus has no such sample).
import { describe, expect, it } from 'vitest';
import { type FlvTag, TagFlag, TagType } from '../../src/flv/tag.js';
import { loadSample, runPipeline } from '../flv/helpers.js';

function backwards(tags: readonly FlvTag[]): number {
  let n = 0;
  for (const type of [TagType.Video, TagType.Audio]) {
    const ts = tags.filter((t) => t.type === type && !(t.flag & TagFlag.Header)).map((t) => t.timestamp);
    n += ts.slice(1).filter((t, i) => t <= ts[i]!).length;
  }
  return n;
}

describe('tags repeated inside a group', () => {
  const tags = loadSample('Good', 'obs-fps30.xml');

  it('the sample itself goes forward in every channel', () => {
    const run = runPipeline(tags);
    expect(run.files.flat().length).toBeGreaterThan(100);
    expect(backwards(run.files.flat())).toBe(0);
  });

  it('three repeated chunks mid-GOP are dropped: nothing goes back, nothing else is lost', () => {
    const withRepeats: FlvTag[] = [];
    const at = new Set([60, 130, 200]);
    tags.forEach((t, i) => {
      withRepeats.push(t);
      if (at.has(i)) for (const r of tags.slice(i - 4, i + 1)) withRepeats.push({ ...r });
    });
    const clean = runPipeline(tags);
    const run = runPipeline(withRepeats);
    expect(backwards(run.files.flat())).toBe(0);
    expect(run.files.flat().length).toBe(clean.files.flat().length);
    expect(run.comments.some((c) => c.type === 'RepeatingData' && /重复的标签/.test(c.text))).toBe(true);
  });
});
