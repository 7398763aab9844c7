// Issue 36, FLV row: the simulator's duplicate-chunk fault (a CDN resending its last chunk mid-GOP), 3 times; the repaired
// file must never have a timestamp going back in a channel (ffmpeg's "non monotonically increasing dts"). Twelve faults
// rather than three, for more chances to land mid-GOP; flv-repeated-tags.test.ts checks the rule itself.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { ffmpegBin, probe } from '../support/media-tools.js';
import { TagType } from '../../src/flv/tag.js';

const ROOM = 36501;

const flvOf = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.flv')).map((f) => join(dir, f));

/** Media tags (type, timestamp), sequence headers left out. */
function mediaTags(path: string): { type: number; timestamp: number }[] {
  const file = readFileSync(path);
  const out: { type: number; timestamp: number }[] = [];
  for (let pos = 13; pos + 11 <= file.length;) {
    const type = file[pos]!;
    const size = file.readUIntBE(pos + 1, 3);
    const timestamp = file.readUIntBE(pos + 4, 3) | (file[pos + 7]! << 24);
    const header = (type === TagType.Video && file[pos + 12] === 0) || (type === TagType.Audio && file[pos + 12] === 0);
    if ((type === TagType.Video || type === TagType.Audio) && !header) out.push({ type, timestamp });
    pos += 11 + size + 4;
  }
  return out;
}

function remux(path: string): Promise<string> {
  return new Promise((resolve) => execFile(ffmpegBin(), ['-v', 'error', '-i', path, '-c', 'copy', '-f', 'flv', '-y', '/dev/null'], (_e, _o, stderr) => resolve(stderr)));
}

describe('FLV duplicate chunks', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rooms: [{ roomId: ROOM, live: true, bitrateKbps: 800, formats: ['flv'] }] });
    await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM, 30_000);
    for (let i = 0; i < 12; i++) {
      await sleep(700);
      h.sim.addFault(ROOM, { kind: 'duplicate-chunk', afterMs: 0 });
    }
    await sleep(3000);
    h.sim.setLive(ROOM, false);
    await h.waitEvent('SessionEnded', (e) => roomOf(e) === ROOM, 30_000);
    await h.close();
  }, 90_000);
  afterAll(() => undefined);

  it('every file remuxes without a DTS error, and no channel goes back or repeats a timestamp', async () => {
    const files = flvOf(h.workDir);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      expect(await remux(f), f).not.toMatch(/non monotonically increasing dts|non monotonic/i);
      expect((await probe(f)).errors, f).toBe('');
      const tags = mediaTags(f);
      for (const type of [TagType.Video, TagType.Audio]) {
        const ts = tags.filter((t) => t.type === type).map((t) => t.timestamp);
        const back = ts.slice(1).filter((t, i) => t <= ts[i]!);
        expect(back, `${f} type ${type}`).toEqual([]);
      }
    }
  });
});
