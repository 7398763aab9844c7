// Danmaku recording against the simulator: one brec XML per video file, complete, in brec's layout, on the video's timeline.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, sleep, startHarness } from '../rooms/harness.js';
import { KINDS, type Element, filesIn, readDanmaku } from './helpers.js';

const ALL = 27001;
const FEW = 27002;
const RAW = 27003;
const RATE = 50;

interface Sent { seq: number; cmd: string; connection: number | null; positionMs: number | null; at: number }

/** brec's attribute order per element (raw last, only with RecordDanmakuRaw). */
const ORDER: Record<Element, string[]> = {
  d: ['p', 'user'], sc: ['ts', 'user', 'uid', 'price', 'time'], gift: ['ts', 'user', 'uid', 'giftname', 'giftcount'], guard: ['ts', 'user', 'uid', 'level', 'count'],
};
const PROLOGUE = ['chatserver', 'chatid', 'mission', 'maxlimit', 'state', 'real_name', 'source', 'BililiveRecorder', 'BililiveRecorderRecordInfo', 'BililiveRecorderXmlStyle'];

describe('danmaku recording', () => {
  let h: Harness;
  const sent = new Map<number, Sent[]>();
  let stall = { from: 0, to: 0 };
  beforeAll(async () => {
    h = await startHarness({
      rooms: [{ roomId: ALL, live: true, bitrateKbps: 500 }, { roomId: FEW, live: true, bitrateKbps: 500 }, { roomId: RAW, live: true, bitrateKbps: 500 }],
      global: { RecordDanmakuFlushInterval: 20 },
      roomConfig: {
        // RecordFillGapsFromHls off: the cut below must start a new file (with it on, the file would continue).
        [ALL]: { RecordDanmaku: true, RecordDanmakuRaw: true, RecordDanmakuGift: true, RecordFillGapsFromHls: false },
        [FEW]: { RecordDanmaku: true, RecordDanmakuSuperChat: false, RecordDanmakuGuard: false },
        [RAW]: { RecordDanmaku: true, RecordMode: 1 },
      },
    });
    for (const id of [ALL, FEW, RAW]) await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === id);
    for (const id of [ALL, FEW, RAW]) h.sim.danmakuRate(id, { rate: RATE });
    await sleep(4000);
    h.sim.addFault(ALL, { kind: 'stream-cut', afterMs: 0 });
    await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === ALL, 30_000, h.events.findLastIndex((e) => e.EventType === 'FileClosed') + 1);
    h.sim.addFault(FEW, { kind: 'stall', afterMs: 0, durationMs: 1500 }); // shorter than the watchdog: same file
    stall = { from: Date.now(), to: Date.now() + 1500 };
    await sleep(3000);
    h.sim.addFault(ALL, { kind: 'timestamp-jump', afterMs: 0, jumpMs: 30_000 });
    await sleep(4000);
    for (const id of [ALL, FEW, RAW]) {
      h.sim.danmakuRate(id, { rate: 0 });
      sent.set(id, h.sim.danmakuSent(id).messages);
    }
    await sleep(500);
    for (const id of [ALL, FEW, RAW]) h.sim.setLive(id, false);
    for (const id of [ALL, FEW, RAW]) await h.waitEvent('SessionEnded', (e) => e.EventData.RoomId === id, 30_000);
  }, 120_000);
  afterAll(() => h?.close());

  const xmlOf = (id: number): string[] => filesIn(h.workDir, '.xml').filter((f) => f.includes(String(id)));

  it('writes one XML beside every video file, readable by fast-xml-parser, in brec layout', () => {
    for (const id of [ALL, FEW, RAW]) {
      const videos = filesIn(h.workDir, '.flv').filter((f) => f.includes(String(id)));
      expect(xmlOf(id)).toEqual(videos.map((v) => v.replace(/\.flv$/, '.xml')));
    }
    expect(xmlOf(ALL).length).toBe(2); // the stream cut started a second file; the jump did not
    for (const path of [...xmlOf(ALL), ...xmlOf(FEW)]) {
      const { text, doc } = readDanmaku(path);
      expect(readFileSync(path).subarray(0, 1024).toString('utf8')).toContain('<BililiveRecorder');
      expect(text.startsWith('\uFEFF<?xml version="1.0" encoding="utf-8"?>\n<?xml-stylesheet type="text/xsl" href="#s"?>\n<i>\n  <!--')).toBe(true);
      const names = [...text.matchAll(/^ {2}<(\w+)/gm)].map((m) => m[1]!);
      expect(names.slice(0, PROLOGUE.length)).toEqual(PROLOGUE);
      expect(names.slice(PROLOGUE.length).every((n) => n in KINDS)).toBe(true);
      const info = (doc.i as Record<string, Record<string, string>>).BililiveRecorderRecordInfo!;
      expect(Object.keys(info)).toEqual(['roomid', 'shortid', 'name', 'title', 'areanameparent', 'areanamechild', 'start_time']);
      expect(text.trimEnd().endsWith('</i>')).toBe(true);
    }
  });

  it('records per file exactly what was sent while it was open, honouring the flags', () => {
    for (const id of [ALL, FEW, RAW]) {
      const enabled: Element[] = id === ALL ? ['d', 'sc', 'gift', 'guard'] : id === FEW ? ['d'] : ['d', 'sc', 'guard']; // RAW: the defaults
      const bySeq = new Map(sent.get(id)!.map((m) => [m.seq, m]));
      let covered = 0;
      let previousMax = 0;
      for (const path of xmlOf(id)) {
        const { items } = readDanmaku(path);
        expect(items.length).toBeGreaterThan(50);
        const seqs = items.map((i) => i.seq);
        const lo = Math.min(...seqs);
        const hi = Math.max(...seqs);
        expect(lo).toBeGreaterThan(previousMax);
        previousMax = hi;
        // Everything the simulator sent between the file's first and last element is in it, as its own element.
        const expected = [...bySeq.values()].filter((m) => m.seq >= lo && m.seq <= hi && enabled.some((e) => KINDS[e] === m.cmd));
        expect(items.map((i) => i.seq).sort((a, b) => a - b)).toEqual(expected.map((m) => m.seq));
        for (const e of Object.keys(KINDS) as Element[]) {
          expect(items.filter((i) => i.element === e).length).toBe(enabled.includes(e) ? expected.filter((m) => m.cmd === KINDS[e]).length : 0);
        }
        for (const i of items) {
          expect(KINDS[i.element]).toBe(bySeq.get(i.seq)!.cmd);
          expect(i.attrNames).toEqual(id === ALL ? [...ORDER[i.element], 'raw'] : ORDER[i.element]);
          expect(i.hasRaw).toBe(id === ALL);
        }
        covered += expected.length;
      }
      // Only messages sent while no file was open (before the first, around the cut) are missing.
      const total = [...bySeq.values()].filter((m) => enabled.some((e) => KINDS[e] === m.cmd)).length;
      expect(covered / total).toBeGreaterThan(0.6);
    }
  });

  it('places elements at the media position they were sent at (median within 100 ms, none over 1 s off), across the cut, the jump and a stall, and in RawData mode', () => {
    const errors: number[] = [];
    const files = xmlOf(ALL);
    files.forEach((path, index) => {
      const { items } = readDanmaku(path);
      // Each file is one connection of the simulator; a message sent after the cut, before the recorder saw the
      // stream end, has no media position (connection 0) and is left out.
      for (const i of items.filter((x) => x.connection !== 0)) {
        expect(i.connection).toBe(index + 1);
        errors.push(Math.abs(i.tsMs - i.positionMs));
      }
    });
    for (const i of readDanmaku(xmlOf(RAW)[0]!).items) errors.push(Math.abs(i.tsMs - i.positionMs)); // RawData: the stream's own timestamps
    // A stall: chat sent while no media flows is placed at most 1 s past the frozen picture (the clock stops);
    // once media flows again, chat is aligned again (brec's stopwatch would stay 1.5 s off from here on).
    const atOf = new Map(sent.get(FEW)!.map((m) => [m.seq, m.at]));
    const stalled: number[] = [];
    for (const path of xmlOf(FEW)) {
      for (const i of readDanmaku(path).items.filter((x) => x.connection !== 0)) {
        const at = atOf.get(i.seq)!;
        if (at >= stall.from - 100 && at <= stall.to + 300) {
          stalled.push(i.positionMs);
          expect(Math.abs(i.tsMs - i.positionMs)).toBeLessThanOrEqual(1300);
        } else {
          errors.push(Math.abs(i.tsMs - i.positionMs));
        }
      }
    }
    expect(stalled.length).toBeGreaterThan(40);
    expect(Math.max(...stalled) - Math.min(...stalled)).toBeLessThan(1000); // the media did stop (1.9 s of wall time)
    expect(errors.length).toBeGreaterThan(400);
    errors.sort((a, b) => a - b);
    const within = errors.filter((e) => e <= 100).length / errors.length;
    console.log(`danmaku ts error over ${errors.length} elements: median ${errors[errors.length >> 1]} ms, max ${Math.round(errors.at(-1)!)} ms, ${(within * 100).toFixed(1)} % within 100 ms`);
    // On a quiet machine every element is within 100 ms (max 60-98 ms measured). Under heavy CPU contention a
    // thread scheduled late puts bursts of elements beyond it (12.5 % of them once, in CI), so the precision claim is
    // the median; a wrong mapping (the cut, the 30 s jump or the 1.5 s stall not followed) puts whole stretches of a
    // file over a second off, which the bound on the largest error catches.
    expect(errors[errors.length >> 1]).toBeLessThanOrEqual(100);
    expect(errors.at(-1)).toBeLessThanOrEqual(1000);
  });
});
