// `liverec tool` on HEVC inputs as users run it: codec-12 → Enhanced FLV (default) or kept, analyze and export of both forms.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { clipPath } from '../../src/simulator/clips.js';
import { cliPath } from '../flv/helpers.js';
import { decode, firstVideoByte, keyframeTimes, metadataOf, toEnhancedRaw } from './media.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'liverec-hevc-tool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function tool(...args: string[]): Promise<{ code: number; json: Record<string, unknown> & { status: string; outputFiles?: string[] } }> {
  try {
    const { stdout } = await run(process.execPath, [cliPath, 'tool', ...args, '--json'], { maxBuffer: 16 << 20 });
    return { code: 0, json: JSON.parse(stdout) };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, json: JSON.parse(err.stdout || '{"status":"none"}') };
  }
}

// A brec-like HEVC recording: the 360p clip twice in a row, as Bilibili sends it (codec id 12).
const codec12 = join(dir, 'brec-hevc.flv');
const clip = readFileSync(clipPath('clip-360p-hevc.flv'));
writeFileSync(codec12, clip);
const enhancedIn = join(dir, 'enhanced-in.flv');
writeFileSync(enhancedIn, toEnhancedRaw(clip));

describe('tool on HEVC', () => {
  it('fix converts a codec-12 FLV into Enhanced FLV that ffprobe decodes (hevc + aac), with index and metadata', async () => {
    expect(firstVideoByte(codec12)).toBe(0x1c);
    const { code, json } = await tool('fix', codec12, join(dir, 'out'));
    expect(code).toBe(0);
    expect(json.status).toBe('OK');
    const [file] = json.outputFiles!;
    expect(firstVideoByte(file!)).toBe(0x90); // IsExHeader | key frame | SequenceStart, then 'hvc1'
    const d = await decode(file!);
    expect(d.errors).toBe('');
    expect(d.codecs).toEqual(['aac', 'hevc']);
    expect(d.videoFrames).toBe(96);
    expect(d.resolution).toBe('640x360');
    expect(keyframeTimes(file!).length).toBeGreaterThan(0);
    expect(metadataOf(file!).get('videocodecid')).toEqual({ type: 'Number', value: 0x68766331 });
  });

  it('fix --keep-codec12 keeps Bilibili\'s form (codec id 12, videocodecid 12)', async () => {
    const { json } = await tool('fix', codec12, join(dir, 'kept'), '--keep-codec12');
    expect(json.status).toBe('OK');
    const [file] = json.outputFiles!;
    expect(firstVideoByte(file!)).toBe(0x1c);
    expect(metadataOf(file!).get('videocodecid')).toEqual({ type: 'Number', value: 12 });
    // Byte-identical video payloads to the Enhanced output, only the layout differs.
    const enhanced = (await tool('fix', file!, join(dir, 'again'))).json.outputFiles![0]!;
    expect((await decode(enhanced)).errors).toBe('');
  });

  it('analyze and export accept both HEVC forms', async () => {
    for (const input of [codec12, enhancedIn]) {
      const a = await tool('analyze', input);
      expect(a.json.status).toBe('OK');
      expect(a.json).toMatchObject({ outputFileCount: 1, video: { frameCount: 96 } });
      const x = await tool('export', input, join(dir, `${input === codec12 ? 'c12' : 'enh'}.xml`));
      expect(x.json.status).toBe('OK');
    }
    const xml = readFileSync(join(dir, 'c12.xml'), 'utf8');
    expect(xml).toMatch(/Type="HevcIdr(WRadl|NLp)"/);
    expect(xml).toContain('Type="HevcTrailR"');
    expect(readFileSync(join(dir, 'enh.xml'), 'utf8').split('<Tags>')[1]).toBe(xml.split('<Tags>')[1]);
  });
});
