// The benchmark's bytes-out accounting: brec's large onMetaData must not make two recorders of one stream look different.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { flvLeadBytes, outputSizes } from '../../bench/output-bytes.js';
import { ffmpegBin } from '../../bench/ffmpeg-bin.js';
import { processFile } from '../../src/flv/process-file.js';

const input = join(__dirname, '../fixtures/media/h264-aac.flv');
const dir = mkdtempSync(join(tmpdir(), 'liverec-output-bytes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench output sizes', () => {
  it('counts the media of liverec and ffmpeg copies of one stream alike, though their onMetaData differ by ~113 KB', () => {
    mkdirSync(join(dir, 'liverec'));
    const report = processFile({ input, outputBase: join(dir, 'liverec', 'out.flv') });
    expect(report.status).toBe('OK');
    execFileSync(ffmpegBin(), ['-loglevel', 'error', '-i', input, '-c', 'copy', join(dir, 'ffmpeg.flv')]);
    const l = outputSizes(join(dir, 'liverec'));
    const fSize = statSync(join(dir, 'ffmpeg.flv')).size;
    const fMedia = fSize - flvLeadBytes(join(dir, 'ffmpeg.flv'), fSize);
    expect(l.bytes - fSize).toBeGreaterThan(100_000);
    // Same tags, byte for byte, after the lead: the comparison may then hold both to 1 %.
    expect(l.mediaBytes).toBe(fMedia);
  });

  it('counts every byte of files that are not FLV, and of an FLV without a leading script tag', () => {
    const sub = join(dir, 'plain');
    rmSync(sub, { recursive: true, force: true });
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'a.txt'), 'x'.repeat(100));
    const flv = Buffer.concat([Buffer.from('FLV\x01\x05\x00\x00\x00\x09\x00\x00\x00\x00', 'latin1'), Buffer.from([9, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0, 16])]);
    writeFileSync(join(sub, 'b.flv'), flv);
    expect(outputSizes(sub)).toEqual({ bytes: 100 + flv.length, mediaBytes: 100 + flv.length - 13 });
  });
});
