// The tool's stderr progress bar: drawn only on a terminal, aggregated over jobs, cleared at the end.
import { describe, expect, it } from 'vitest';
import { ProgressBar, progressBarFor } from '../../src/cli/tool/progress.js';

const fakeStream = (isTTY: boolean) => {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 80, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream };
};

describe('ProgressBar', () => {
  it('is not drawn when stderr is not a terminal', () => {
    expect(progressBarFor(fakeStream(false).stream, 100, 'fix')).toBeNull();
  });

  it('draws the sum over jobs and clears the line when finished', async () => {
    const { writes, stream } = fakeStream(true);
    const bar = new ProgressBar(stream, 4 * 1024 * 1024, 'fix');
    bar.update(0, 1024 * 1024);
    await new Promise((r) => setTimeout(r, 110));
    bar.update(1, 1024 * 1024);
    expect(writes.at(-1)).toMatch(/^\r\x1b\[2K\[#+-+\]  50% 2\.0\/4\.0 MB fix$/);
    bar.finish();
    expect(writes.at(-1)).toBe('\r\x1b[2K');
  });
});
