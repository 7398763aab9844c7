// The preview hub with fMP4 segments (the simulator's clip, one fragment made a non-keyframe start): a viewer gets
// the init section and the fragments from the last one that begins with a keyframe, then every later fragment; a
// viewer joining while no keyframe fragment is cached waits for the next one; a stalled viewer is dropped alone.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { boxes, child } from '../../src/hls/mp4-boxes.js';
import { PreviewHub } from '../../src/preview/preview-hub.js';
import { fragmentsOf, keyInfoOf } from '../../src/preview/mp4-fragments.js';
import { simulatorClip } from '../../bench/long-flv.js';
import { readSome } from './read-stream.js';

const clip = readFileSync(simulatorClip('clip-360p.fmp4'));
const headEnd = boxes(clip).find((b) => b.type === 'moof')!.start;
const head = clip.subarray(0, headEnd);
const info = keyInfoOf(head);
const [videoTrack] = [...info.video.keys()];

/** A copy of the clip's fragments; those at `nonKey` get a first sample that is not a sync sample. */
function fragments(nonKey: number[]): Buffer[] {
  const frags = fragmentsOf(clip.subarray(headEnd), info).map((f) => Buffer.from(f.bytes));
  for (const i of nonKey) {
    const f = frags[i]!;
    const moof = boxes(f)[0]!;
    for (const traf of boxes(f, moof.body, moof.end).filter((b) => b.type === 'traf')) {
      const tfhd = child(f, traf, 'tfhd')!;
      if (f.readUInt32BE(tfhd.body + 4) !== videoTrack) continue;
      const trun = child(f, traf, 'trun')!;
      const rf = f.readUInt32BE(trun.body) & 0xffffff;
      const per = ((rf & 0x100 ? 1 : 0) + (rf & 0x200 ? 1 : 0) + (rf & 0x400 ? 1 : 0) + (rf & 0x800 ? 1 : 0)) * 4;
      let q = trun.body + 8 + (rf & 0x01 ? 4 : 0);
      if (rf & 0x04) f.writeUInt32BE(0x01010000, q);
      else {
        expect(rf & 0x400).toBeTruthy();
        q += (rf & 0x100 ? 4 : 0) + (rf & 0x200 ? 4 : 0);
        f.writeUInt32BE(0x01010000, q);
      }
      expect(per).toBeGreaterThan(0);
    }
  }
  return frags;
}

describe('the preview hub with fMP4', () => {
  it('knows keyframe fragments', () => {
    const frags = fragments([1, 2]);
    expect(frags.length).toBeGreaterThanOrEqual(4);
    expect(fragmentsOf(Buffer.concat(frags), info).map((f) => f.key)).toEqual(frags.map((_, i) => i !== 1 && i !== 2));
  });

  it('starts a viewer on the head and the last keyframe fragment, then passes every fragment; a late one waits for a keyframe', async () => {
    const hub = new PreviewHub({ control: async () => 'mp4', maxViewers: () => 3 });
    const frags = fragments([1, 2]);
    const v1 = await hub.join(1, 'mp4');
    hub.receive(1, { kind: 'head', bytes: new Uint8Array(head), path: '/x.mp4', format: 'mp4' });
    // A segment of a non-key fragment only: nobody can start on it.
    hub.receive(1, { kind: 'data', bytes: frags[1]! });
    // A segment of a keyframe fragment and a non-key one: v1 starts at the keyframe fragment.
    hub.receive(1, { kind: 'data', bytes: Buffer.concat([frags[0]!, frags[2]!]) });
    const v2 = await hub.join(1, 'mp4');
    hub.receive(1, { kind: 'data', bytes: frags[3]! });
    const want = Buffer.concat([head, frags[0]!, frags[2]!, frags[3]!]);
    expect((await readSome(v1, want.length)).equals(want)).toBe(true);
    expect((await readSome(v2, want.length)).equals(want)).toBe(true);
    // The room gets a new file: its head, then a non-key fragment (a joining viewer waits), then a keyframe one.
    hub.receive(1, { kind: 'end' });
    expect(hub.viewers(1)).toBe(0);
    const v3 = await hub.join(1, 'mp4');
    hub.receive(1, { kind: 'head', bytes: new Uint8Array(head), path: '/y.mp4', format: 'mp4' });
    hub.receive(1, { kind: 'data', bytes: frags[1]! });
    hub.receive(1, { kind: 'data', bytes: frags[0]! });
    const next = Buffer.concat([head, frags[0]!]);
    expect((await readSome(v3, next.length)).equals(next)).toBe(true);
    expect(await hub.join(1, 'flv').catch((e: Error) => e.message)).toContain('live.mp4');
    hub.close();
  });

  it('drops a viewer that stops reading, alone', async () => {
    const hub = new PreviewHub({ control: async () => 'mp4', maxViewers: () => 3, viewerQueueBytes: 256 * 1024 });
    const frags = fragments([]);
    const stalled = await hub.join(1, 'mp4');
    const reading = await hub.join(1, 'mp4');
    hub.receive(1, { kind: 'head', bytes: new Uint8Array(head), path: '/x.mp4', format: 'mp4' });
    const reader = reading.getReader();
    let got = 0;
    const pump = (async () => {
      for (;;) {
        const r = await reader.read();
        if (r.done) return;
        got += r.value.length;
      }
    })();
    let sent = headEnd;
    for (let round = 0; round < 20; round++) {
      for (const f of frags) {
        hub.receive(1, { kind: 'data', bytes: f });
        sent += f.length;
      }
      await new Promise((r) => setImmediate(r));
    }
    expect(hub.viewers(1)).toBe(1);
    void stalled;
    hub.close();
    await pump;
    expect(got).toBe(sent);
  });
});
