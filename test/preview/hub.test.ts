// The preview hub with real streams and real FLV bytes (a simulator clip): a viewer starts at the head and the GOP
// so far, gets every later tag in order; one that stops reading is dropped alone; the room's thread is asked for
// bytes only while someone watches; PreviewMaxViewers bounds the readers.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PreviewHub } from '../../src/preview/preview-hub.js';
import { headOf } from '../../src/preview/tap.js';
import { simulatorClip } from '../../bench/long-flv.js';
import { readSome } from './read-stream.js';

const clip = readFileSync(simulatorClip('clip-360p.flv'));
const headerEnd = clip.readUInt32BE(5) + 4;
/** The clip's tags after its start (script and sequence headers), as the writer appends them. */
function mediaTags(): Buffer[] {
  const out: Buffer[] = [];
  for (let p = headerEnd; p + 11 <= clip.length;) {
    const size = clip.readUIntBE(p + 1, 3);
    const body = clip.subarray(p + 11, p + 11 + size);
    const type = clip[p]! & 0x1f;
    const config = type === 18 || (type === 9 && body[1] === 0) || (type === 8 && body[1] === 0);
    if (!config) out.push(clip.subarray(p, p + 11 + size + 4));
    p += 11 + size + 4;
  }
  return out;
}
/** Bytes of the tags before the first video keyframe (a viewer starts at a keyframe). */
function beforeFirstKey(tags: Buffer[]): number {
  let n = 0;
  for (const t of tags) {
    if ((t[0]! & 0x1f) === 9 && t[11]! >> 4 === 1) return n;
    n += t.length;
  }
  return n;
}

/** The clip's first write as the file output makes it: header, script, sequence headers. */
function firstWrite(): Buffer {
  const tags = mediaTags();
  const firstMedia = clip.indexOf(tags[0]!);
  return clip.subarray(0, firstMedia);
}

describe('the preview hub', () => {
  it('starts a viewer at the head and the last keyframe, then passes every tag; asks the thread only while watched', async () => {
    const calls: [number, boolean][] = [];
    const hub = new PreviewHub({ control: async (id, on) => (calls.push([id, on]), 'flv'), maxViewers: () => 3 });
    const head = headOf(firstWrite())!;
    const tags = mediaTags();
    // Before anyone watches, chunks are not asked for (and any that arrive turn the tap off again).
    hub.receive(7, { kind: 'data', bytes: tags[0]! });
    expect(calls).toEqual([[7, false]]);
    calls.length = 0;
    const s1 = await hub.join(7);
    expect(calls).toEqual([[7, true]]);
    hub.receive(7, { kind: 'head', bytes: head, path: '/w/7/a.flv', format: 'flv' });
    // Tags arrive in write-sized chunks that do not respect tag ends.
    const all = Buffer.concat(tags.slice(0, 60));
    for (let p = 0; p < all.length; p += 7000) hub.receive(7, { kind: 'data', bytes: new Uint8Array(all.subarray(p, p + 7000)) });
    const skip = beforeFirstKey(tags);
    const got = await readSome(s1, head.length + all.length - skip);
    // The viewer gets the head, then everything from the first keyframe on (audio before it is left out).
    expect(got.equals(Buffer.concat([head, all.subarray(skip)]))).toBe(true);
    // A second viewer joining now starts at the head and the GOP so far: it begins on a keyframe.
    const s2 = await hub.join(7);
    const second = await readSome(s2, head.length + 11);
    expect(second.subarray(0, head.length).equals(head)).toBe(true);
    const firstTag = second.subarray(head.length);
    expect(firstTag[0]! & 0x1f).toBe(9);
    expect(second[head.length + 11]! >> 4).toBe(1);
    expect(hub.position(7)).toEqual({ path: '/w/7/a.flv', atMs: tags[59]!.readUIntBE(4, 3) });
    hub.close();
  });

  it('drops a viewer that stops reading, alone; the others and the feed go on', async () => {
    const hub = new PreviewHub({ control: async () => 'flv', maxViewers: () => 3, viewerQueueBytes: 256 * 1024 });
    const head = headOf(firstWrite())!;
    const stalled = await hub.join(1);
    const reading = await hub.join(1);
    hub.receive(1, { kind: 'head', bytes: head, path: '/w/a.flv', format: 'flv' });
    const reader = reading.getReader();
    let readBytes = 0;
    let ended = false;
    void (async () => {
      for (;;) {
        const r = await reader.read();
        if (r.done) return void (ended = true);
        readBytes += r.value.length;
      }
    })();
    const tags = mediaTags();
    let fed = 0;
    for (let loop = 0; loop < 12; loop++) {
      for (const t of tags) {
        hub.receive(1, { kind: 'data', bytes: new Uint8Array(t) });
        fed += t.length;
      }
      await new Promise((r) => setImmediate(r));
    }
    expect(fed).toBeGreaterThan(2 * 256 * 1024);
    expect(hub.viewers(1)).toBe(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(readBytes).toBe(head.length + fed - beforeFirstKey(tags));
    expect(ended).toBe(false);
    // The stalled one's stream holds what was queued before it was dropped, then ends.
    const rest = await readSome(stalled, Infinity);
    expect(rest.length).toBeLessThan(fed);
    hub.close();
  });

  it('bounds readers by PreviewMaxViewers (0: off) and refuses a room that writes no FLV', async () => {
    let max = 2;
    const hub = new PreviewHub({ control: async (id) => (id !== 9 ? 'flv' : null), maxViewers: () => max });
    await hub.join(1);
    await hub.join(1);
    await expect(hub.join(1)).rejects.toMatchObject({ code: 'PREVIEW_FULL' });
    await expect(hub.join(9)).rejects.toMatchObject({ code: 'PREVIEW_NOT_RECORDING' });
    max = 0;
    await expect(hub.join(2)).rejects.toMatchObject({ code: 'PREVIEW_OFF' });
    hub.close();
  });
});
