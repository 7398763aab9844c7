// The live fMP4 preview's codec strings (RFC 6381, from the moov) against ffprobe's reading of the same files: sample
// entry, profile and level of H.264, HEVC and AV1, and AAC LC; a stream without a whole moov is not an init section.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codecsOf, initEnd } from '../../web/src/components/mp4-codecs.js';
import { ffprobeBin } from '../support/media-tools.js';

const CLIPS = join(import.meta.dirname, '..', '..', 'src', 'simulator', 'clips');
const PROFILES: Record<string, Record<string, number>> = { h264: { High: 0x64, Main: 0x4d, Baseline: 0x42 }, hevc: { Main: 1, 'Main 10': 2 }, av1: { Main: 0, High: 1 } };

describe('codec strings of an init section', () => {
  for (const name of ['clip-360p.fmp4', 'clip-480p.fmp4', 'clip-360p-hevc.fmp4', 'clip-360p-av1.fmp4']) {
    it(`${name}: as ffprobe reads it`, () => {
      const file = readFileSync(join(CLIPS, name));
      const out = JSON.parse(execFileSync(ffprobeBin(), ['-v', 'error', '-show_entries', 'stream=codec_name,profile,level,codec_tag_string', '-of', 'json', join(CLIPS, name)], { encoding: 'utf8' })) as
        { streams: { codec_name: string; profile: string; level?: number; codec_tag_string: string }[] };
      const end = initEnd(file);
      expect(end).toBeGreaterThan(0);
      const codecs = codecsOf(file.subarray(0, end)).split(',');
      expect(codecs).toHaveLength(out.streams.length);
      for (const [i, st] of out.streams.entries()) {
        const c = codecs[i]!;
        expect(c.split('.')[0]).toBe(st.codec_tag_string);
        if (st.codec_name === 'h264') expect(c.slice(5)).toBe(`${PROFILES.h264![st.profile]!.toString(16)}${c.slice(7, 9)}${st.level!.toString(16).padStart(2, '0')}`);
        if (st.codec_name === 'hevc') expect(c).toMatch(new RegExp(`^hvc1\\.${PROFILES.hevc![st.profile]}\\.[0-9a-f]+\\.[LH]${st.level}(\\.|$)`));
        if (st.codec_name === 'av1') expect(c).toMatch(new RegExp(`^av01\\.${PROFILES.av1![st.profile]}\\.${String(st.level).padStart(2, '0')}[MH]\\.(08|10|12)$`));
        if (st.codec_name === 'aac') expect(c).toBe(st.profile === 'LC' ? 'mp4a.40.2' : c);
      }
    });
  }

  it('waits for a whole moov', () => {
    const file = readFileSync(join(CLIPS, 'clip-360p.fmp4'));
    expect(initEnd(file.subarray(0, initEnd(file) - 1))).toBe(-1);
    expect(codecsOf(file.subarray(0, 20))).toBe('');
  });
});
