// The danmaku file writer: brec's flush interval, always well-formed on disk, invalid characters removed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { DanmakuRecorder, danmakuPathFor } from '../../src/danmaku/recorder.js';
import { danmakuSettingsFromFlags } from '../../src/danmaku/portable-flags.js';
import { comment, gift, guard, superChat } from './events.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-dm-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function recorder(overrides: Record<string, unknown> = {}): { rec: DanmakuRecorder; logs: string[] } {
  const config = new ConfigStore();
  Object.assign(config.global, { RecordDanmaku: true }, overrides);
  const settings = config.resolveRoom(config.addRoom(1, true));
  const logs: string[] = [];
  const rec = new DanmakuRecorder({
    settings: () => settings,
    info: () => ({ roomId: 1, shortId: 2, name: 'n"&<', title: 't', areaNameParent: 'a', areaNameChild: 'b' }),
    log: (_level, msg) => logs.push(msg),
  });
  return { rec, logs };
}

/** Offered messages are written in the check phase of the event loop. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const elements = (path: string): number => (readFileSync(path, 'utf8').match(/^ {2}<(d|sc|gift|guard) /gm) ?? []).length;
const wellFormed = (path: string): boolean => XMLValidator.validate(readFileSync(path, 'utf8')) === true;

describe('danmaku writer', () => {
  it('flushes every 21 messages (brec counts before incrementing) and the file is well-formed after every flush', async () => {
    const { rec } = recorder({ RecordDanmakuFlushInterval: 20 });
    const video = join(dir, 'a.flv');
    rec.fileOpened(video);
    const xml = danmakuPathFor(video);
    expect(xml).toBe(join(dir, 'a.xml'));
    expect(wellFormed(xml)).toBe(true);
    for (let i = 0; i < 20; i++) rec.offer(comment(`c${i}`));
    await settle();
    expect(elements(xml)).toBe(0);
    rec.offer(comment('c20'));
    await settle();
    expect(elements(xml)).toBe(21);
    expect(wellFormed(xml)).toBe(true);
    for (let i = 0; i < 25; i++) rec.offer(gift()); // counted although gifts are off by default
    await settle();
    expect(elements(xml)).toBe(21);
    rec.fileClosed(video);
    expect(elements(xml)).toBe(21);
    expect(wellFormed(xml)).toBe(true);
  });

  it('removes characters XML cannot carry and escapes the rest', () => {
    const { rec } = recorder({ RecordDanmakuRaw: true });
    const video = join(dir, 'b.flv');
    rec.fileOpened(video);
    rec.offer(comment('a\u0001b\uFFFE<&>"\uD800 ok'));
    rec.offer(comment('   '));
    rec.offer(superChat('line1\nline2'));
    rec.offer(guard());
    rec.close();
    const text = readFileSync(danmakuPathFor(video), 'utf8');
    expect(XMLValidator.validate(text)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(text);
    const d = doc.i.d as { '#text'?: string; raw: string }[];
    expect(d[0]!['#text']).toBe('ab<&>" ok');
    expect(d[1]!['#text']).toBeUndefined();
    // raw is JSON: controls and lone surrogates survive as JSON escapes; U+FFFE, written literally, is removed.
    expect(JSON.parse(d[0]!.raw)[1]).toBe('a\u0001b<&>"\uD800 ok');
    expect(doc.i.BililiveRecorderRecordInfo.name).toBe('n"&<');
    expect(doc.i.sc['#text']).toBe('line1\nline2');
    expect(doc.i.guard.level).toBe('3');
  });

  it('writes nothing when RecordDanmaku is off, and closes only with its own video file', () => {
    const { rec } = recorder({ RecordDanmaku: false });
    rec.fileOpened(join(dir, 'c.flv'));
    rec.offer(comment('x'));
    rec.close();
    expect(() => readFileSync(join(dir, 'c.xml'))).toThrow();
  });

  it('maps portable --danmaku flags as brec does', () => {
    expect(danmakuSettingsFromFlags(undefined).RecordDanmaku).toBe(false);
    expect(danmakuSettingsFromFlags('Danmaku')).toEqual({ RecordDanmaku: true, RecordDanmakuSuperChat: false, RecordDanmakuGuard: false, RecordDanmakuGift: false, RecordDanmakuRaw: false });
    expect(danmakuSettingsFromFlags('superchat,Gift')).toMatchObject({ RecordDanmaku: true, RecordDanmakuSuperChat: true, RecordDanmakuGift: true, RecordDanmakuGuard: false });
    expect(Object.values(danmakuSettingsFromFlags('All')).every(Boolean)).toBe(true);
    expect(() => danmakuSettingsFromFlags('Chat')).toThrow(/unknown flag Chat/);
  });
});
