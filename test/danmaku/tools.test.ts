// `liverec tool danmaku-ass` and `danmaku-merge` as a real CLI process on real files.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseAss } from 'ass-compiler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { DanmakuRecorder } from '../../src/danmaku/recorder.js';
import { cliEntry, packageRoot } from '../../src/paths.js';
import { comment, gift, guard, superChat } from './events.js';
import { readDanmaku } from './helpers.js';

const cli = cliEntry;
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'liverec-dm-tools-'));

/** Records a file with the real writer: `counts` comments by mode, super chats, gifts and guards. */
async function record(video: string, n: { scroll: number; top: number; bottom: number; sc: number }, roomId: number, startTime?: string): Promise<void> {
  const config = new ConfigStore();
  Object.assign(config.global, { RecordDanmaku: true, RecordDanmakuRaw: true, RecordDanmakuGift: true });
  const settings = config.resolveRoom(config.addRoom(roomId, true));
  const rec = new DanmakuRecorder({ settings: () => settings, info: () => ({ roomId, shortId: 0, name: 'n', title: 't', areaNameParent: 'p', areaNameChild: 'c' }), log: () => undefined });
  rec.fileOpened(video);
  let pos = 0;
  // One message per media position; offered messages are written in the check phase of the event loop.
  const offer = async (ev: Parameters<DanmakuRecorder['offer']>[0], advance = true): Promise<void> => {
    rec.offer(ev);
    await new Promise((resolve) => setImmediate(resolve));
    if (advance) rec.mediaPosition((pos += 250));
  };
  rec.mediaPosition((pos += 250));
  for (let i = 0; i < n.scroll; i++) await offer(comment(`滚动弹幕 scrolling ${i} {\\b1}`, { color: i % 2 ? 0xfe0302 : 0xffffff }));
  for (let i = 0; i < n.top; i++) await offer(comment(`top ${i}`, { mode: 5 }));
  for (let i = 0; i < n.bottom; i++) await offer(comment(`bottom ${i}`, { mode: 4 }));
  for (let i = 0; i < n.sc; i++) await offer(superChat(`super chat ${i}`));
  await offer(gift(), false);
  await offer(guard(), false);
  rec.close();
  if (startTime) {
    const path = video.replace(/\.flv$/, '.xml');
    writeFileSync(path, readFileSync(path, 'utf8').replace(/start_time="[^"]*"/, `start_time="${startTime}"`));
  }
}

describe('danmaku tools', () => {
  beforeAll(async () => {
    copyFileSync(join(packageRoot, 'src/simulator/clips/clip-360p.flv'), join(dir, 'rec.flv'));
    await record(join(dir, 'rec.flv'), { scroll: 40, top: 5, bottom: 4, sc: 3 }, 5);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('danmaku-ass renders every comment and super chat, sized for the sibling video', async () => {
    const { stdout } = await run(process.execPath, [cli, 'tool', 'danmaku-ass', join(dir, 'rec.xml'), join(dir, 'out.ass'), '--json']);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ width: 640, height: 360, events: { scroll: 40, top: 5, bottom: 4, superChat: 3 } });
    const ass = parseAss(readFileSync(join(dir, 'out.ass'), 'utf8'));
    expect(ass.info.PlayResX).toBe('640');
    expect(ass.info.PlayResY).toBe('360');
    const dialogues = ass.events.dialogue;
    expect(dialogues).toHaveLength(52);
    expect(dialogues.filter((d) => d.Style === 'SuperChat')).toHaveLength(3);
    const texts = dialogues.map((d) => d.Text.combined);
    expect(texts).toContain('top 0');
    expect(texts.some((t) => t.startsWith('滚动弹幕 scrolling 0'))).toBe(true);
    // Braces in comments are shown, never taken as override tags.
    expect(dialogues.every((d) => d.Text.parsed.every((p) => p.tags.every((t) => !('b' in t))))).toBe(true);
    // Stamped at its media position, plus the wall time since that position was reported (the clock runs on between
    // reports): at or after 41 × 0.25 s and before the next position (a loaded machine delays the write by ms).
    const top0 = dialogues.find((d) => d.Text.combined === 'top 0')!.Start;
    expect(top0).toBeGreaterThanOrEqual(41 * 0.25 - 0.005);
    expect(top0).toBeLessThan(42 * 0.25);
  });

  it('danmaku-ass fails clearly on a file that is not danmaku XML', async () => {
    writeFileSync(join(dir, 'bad.xml'), '<i><d p="1');
    const err = await run(process.execPath, [cli, 'tool', 'danmaku-ass', join(dir, 'bad.xml')]).catch((e: { code: number; stderr: string }) => e);
    expect((err as { code: number }).code).toBe(1);
    expect((err as { stderr: string }).stderr).toMatch(/not well-formed XML.*DANMAKU_BAD_INPUT/);
  });

  it('danmaku-merge shifts each file by its start_time and keeps the earliest record info', async () => {
    await record(join(dir, 'm1.flv'), { scroll: 3, top: 0, bottom: 0, sc: 1 }, 11, '2026-01-01T10:00:00.000+08:00');
    await record(join(dir, 'm2.flv'), { scroll: 2, top: 1, bottom: 0, sc: 0 }, 12, '2026-01-01T10:01:30.000+08:00');
    const out = join(dir, 'merged.xml');
    await run(process.execPath, [cli, 'tool', 'danmaku-merge', out, join(dir, 'm2.xml'), join(dir, 'm1.xml')]);
    const { doc, text } = readDanmaku(out);
    const info = (doc.i as Record<string, Record<string, string>>).BililiveRecorderRecordInfo!;
    expect(info.roomid).toBe('11');
    expect(info.start_time).toBe('2026-01-01T10:00:00.000+08:00');
    // The recorded times carry a few ms of the writer's wall clock under load; the merge must shift them exactly.
    const times = (xml: string): number[] => [...xml.matchAll(/<d p="([\d.]+),/g)].map((m) => Number(m[1]));
    const [t1, t2] = [times(readFileSync(join(dir, 'm1.xml'), 'utf8')), times(readFileSync(join(dir, 'm2.xml'), 'utf8'))];
    const shifted = (offset: number) => [...t1, ...t2.map((t) => Math.round((t + offset) * 1000) / 1000)];
    expect(t1.map((t) => Math.round(t * 4) / 4)).toEqual([0.25, 0.5, 0.75]);
    expect(times(text)).toEqual(shifted(90));
    expect((text.match(/<sc /g) ?? []).length).toBe(1);
    expect((text.match(/<gift /g) ?? []).length).toBe(2);
    // Guards carry the same few ms of wall clock (91.004 was seen under load); the shift itself must be exact.
    const guards = (xml: string): number[] => [...xml.matchAll(/<guard ts="([\d.]+)"/g)].map((m) => Number(m[1]));
    const [g1, g2] = [guards(readFileSync(join(dir, 'm1.xml'), 'utf8')), guards(readFileSync(join(dir, 'm2.xml'), 'utf8'))];
    expect(g2.map((t) => Math.round(t * 4) / 4)).toEqual([1]);
    expect(guards(text)).toEqual([...g1, ...g2.map((t) => Math.round((t + 90) * 1000) / 1000)]);
    expect(text).toMatch(/<guard ts="91\.\d{3}" user="captain" uid="1" level="3" count="1" raw="\{/);

    await run(process.execPath, [cli, 'tool', 'danmaku-merge', out, join(dir, 'm1.xml'), join(dir, 'm2.xml'), '--offsets', '0', '10']);
    expect(times(readFileSync(out, 'utf8'))).toEqual(shifted(10));
    const err = await run(process.execPath, [cli, 'tool', 'danmaku-merge', out, join(dir, 'm1.xml')]).catch((e: { stderr: string }) => e);
    expect((err as { stderr: string }).stderr).toMatch(/at least two/);
  });
});
