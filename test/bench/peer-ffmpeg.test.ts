// The benchmark's peer check: ffprobe reads every packet of ffmpeg's files, and a damaged one is counted as unclean.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { peerTools, probePeerFiles } from '../../bench/peer-ffmpeg.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-peer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const clip = join(import.meta.dirname, '../fixtures/media/h264-aac.flv');

describe('benchmark peer ffmpeg', () => {
  it('counts files that ffprobe reads with complaints', async () => {
    const broken = join(dir, 'broken.flv');
    // The FLV signature followed by the clip's bytes from its middle: no valid header, ffprobe complains.
    writeFileSync(broken, Buffer.concat([Buffer.from('FLV'), readFileSync(clip).subarray(100_000)]));
    const tools = peerTools('flv');
    expect(tools.source).toBe('devDependency');
    expect(tools.version).toMatch(/^ffmpeg version /);
    const r = await probePeerFiles(tools.ffprobe, [clip, broken]);
    expect(r.files).toBe(2);
    expect(r.unclean).toBe(1);
    expect(r.firstProblem).toMatch(/^.*broken\.flv: /);
  }, 60_000);
});
