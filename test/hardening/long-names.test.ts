// Long titles: file names are cut to 255 bytes per component, keep .flv, stay unique, and the room records.
import { statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { fitPathBytes, truncateUtf8 } from '../../src/template/fit-name-bytes.js';
import { recordingPath } from '../../src/template/recording-path.js';
import { probe } from '../support/media-tools.js';
import { type Harness, sleep, startHarness } from '../rooms/harness.js';

const TITLE = '超长标题'.repeat(25); // 100 CJK characters, 300 bytes in UTF-8
const bytes = (s: string): number => Buffer.byteLength(s);
const ctx = (title: string) => ({
  roomId: 33001, shortId: 0, name: '主播'.repeat(60), uid: 1, title, areaParent: 'a', areaChild: 'b', partIndex: 1, qn: 10000, json: {},
});

describe('file names within the byte limit', () => {
  it('never splits a character and keeps the extension', () => {
    expect(truncateUtf8('ab超', 4)).toBe('ab');
    expect(truncateUtf8('a😀b', 3)).toBe('a');
    const cut = fitPathBytes(`${'目'.repeat(100)}./${'x'.repeat(300)}.flv`);
    const [dir, file] = cut.split('/');
    expect(bytes(dir!)).toBeLessThanOrEqual(255);
    expect(dir!.endsWith('.')).toBe(false);
    expect(bytes(file!)).toBeLessThanOrEqual(255);
    expect(file!.endsWith('.flv')).toBe(true);
  });

  it('cuts every component of a rendered path, and conflicts still get unique names', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const r = recordingPath(ctx(TITLE), { template: null, workDir: '/w', now: new Date(0), exists: (p) => seen.has(p) });
      for (const part of r.relativePath.split('/')) expect(bytes(part)).toBeLessThanOrEqual(255);
      expect(r.relativePath.endsWith('.flv')).toBe(true);
      expect(seen.has(r.fullPath)).toBe(false);
      seen.add(r.fullPath);
    }
  });
});

describe('a room with a 100-character CJK title', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rooms: [{ roomId: 33001, name: '很长的主播名字', title: TITLE, live: true, bitrateKbps: 800 }] });
  });
  afterAll(() => h?.close());

  it('records into a valid file with a cut name', async () => {
    await h.waitEvent('FileOpening', undefined, 30_000);
    await sleep(3000);
    await h.service.recorder.findRoom(33001)!.split();
    const closed = (await h.waitEvent('FileClosed', undefined, 20_000)).EventData as FileClosedData;
    const path = join(h.workDir, closed.RelativePath);
    expect(bytes(basename(path))).toBeLessThanOrEqual(255);
    expect(statSync(path).size).toBeGreaterThan(10_000);
    expect((await probe(path)).errors).toBe('');
  });
});
