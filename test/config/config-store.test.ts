// Config file handling: brec 2.x files load, bad files are refused untouched, saves are atomic with a backup.
import { mkdtempSync, readFileSync, writeFileSync, existsSync, copyFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { ConfigError } from '../../src/config/schema.js';
import { DEFAULT_FILE_NAME_TEMPLATE } from '../../src/config/fields.js';

const fixture = join(import.meta.dirname, '../fixtures/config/brec-2.11-config.json');
const workDir = (): string => mkdtempSync(join(tmpdir(), 'liverec-config-'));

describe('ConfigStore', () => {
  it('loads a config.json written by brec 2.x, with inheritance room → global → default', () => {
    const dir = workDir();
    copyFileSync(fixture, join(dir, 'config.json'));
    const store = ConfigStore.load(dir);
    expect(store.rooms.map((r) => [r.roomId, r.autoRecord])).toEqual([[1, true], [2147483647, false]]);
    const [a, b] = store.rooms;
    expect(store.effective('RecordMode', a)).toBe(1);
    expect(store.effective('TimingCheckInterval')).toBe(180);
    expect(store.effective('WpfShowTitleAndArea')).toBe(false); // {"HasValue":true} without Value = false
    expect(store.effective('Cookie')).toBe(''); // HasValue false = inherit default
    expect(store.effective('RecordDanmaku', b)).toBe(false);
    expect(store.effective('CuttingMode', b)).toBe(1);
    expect(store.effective('CuttingNumber', a)).toBe(100);
    expect(store.resolveRoom(b).CuttingNumber).toBe(30);
    expect(store.effective('FileNameRecordTemplate')).toContain('{% random 3 %}');
  });

  it('uses defaults when there is no config file', () => {
    const store = ConfigStore.load(workDir());
    expect(store.rooms).toEqual([]);
    expect(store.effective('FileNameRecordTemplate')).toBe(DEFAULT_FILE_NAME_TEMPLATE);
    expect(store.effective('DanmakuTransport')).toBe(3);
  });

  it.each([
    ['corrupt JSON', '{"version":3,"global":{', /not valid JSON/],
    ['a wrong field type', '{"version":3,"global":{"CuttingNumber":{"HasValue":true,"Value":"ten"}}}', /global\.CuttingNumber\.Value/],
    ['an enum out of range', '{"version":3,"global":{"RecordMode":{"HasValue":true,"Value":7}}}', /global\.RecordMode\.Value/],
    ['a room without id', '{"version":3,"rooms":[{"AutoRecord":{"HasValue":true,"Value":true}}]}', /rooms\.0\.RoomId/],
    ['HasValue not a boolean', '{"version":3,"rooms":[{"RoomId":{"HasValue":"yes","Value":1}}]}', /rooms\.0\.RoomId\.HasValue/],
    ['an unsupported version', '{"version":2,"data":{}}', /version/],
  ])('refuses %s with a message naming the field, leaving the file byte-identical', (_name, text, message) => {
    const dir = workDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, text);
    expect(() => ConfigStore.load(dir)).toThrow(ConfigError);
    expect(() => ConfigStore.load(dir)).toThrow(message);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('saves atomically, keeps config.backup.json, preserves unknown members, and reloads to the same state', () => {
    const dir = workDir();
    const original = readFileSync(fixture, 'utf8').replace('"version":3', '"version":3,"FutureKey":{"x":1}');
    writeFileSync(join(dir, 'config.json'), original);
    const store = ConfigStore.load(dir);
    store.global.CuttingMode = 2;
    store.addRoom(42, true);
    store.save();
    expect(readFileSync(join(dir, 'config.backup.json'), 'utf8')).toBe(original);
    expect(readdirSync(dir).sort()).toEqual(['config.backup.json', 'config.json']);
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(saved.FutureKey).toEqual({ x: 1 });
    expect(saved.$schema).toContain('configV3.schema.json');
    expect(saved.global.WpfShowTitleAndArea).toEqual({ HasValue: true, Value: false }); // the value written out
    const again = ConfigStore.load(dir);
    expect(again.rooms.map((r) => r.roomId)).toEqual([1, 2147483647, 42]);
    expect(again.effective('CuttingMode')).toBe(2);
    expect(again.resolveRoom(again.rooms[1]!).CuttingNumber).toBe(30);
  });

  it('writes only when something changed, keeping the user\'s member order, unknown members and brec\'s {HasValue, Value} shape', () => {
    const dir = workDir();
    const path = join(dir, 'config.json');
    // The user's order (rooms before global, AutoRecord before RoomId), an unknown member in the middle, 4-space indent.
    const text = JSON.stringify({
      rooms: [{ AutoRecord: { HasValue: true }, Mine: 'keep', RoomId: { HasValue: true, Value: 7 }, CuttingMode: { HasValue: true, Value: 1 } }],
      version: 3,
      global: { TimingCheckInterval: { HasValue: true, Value: 300 }, Note: 'mine', RecordMode: { HasValue: true, Value: 1 } },
    }, null, 4);
    writeFileSync(path, text);
    const store = ConfigStore.load(dir);
    store.save(); // nothing changed (a shutdown, say): the file keeps its bytes, and no backup is made
    store.rooms[0]!.overrides.CuttingMode = 1;
    store.save(); // the same value again: still nothing
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(readdirSync(dir)).toEqual(['config.json']);

    store.global.CuttingNumber = 50;
    store.rooms[0]!.overrides.RecordDanmaku = false;
    store.save();
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    expect(Object.keys(saved)).toEqual(['rooms', 'version', 'global']);
    expect(Object.keys(saved.global)).toEqual(['TimingCheckInterval', 'Note', 'RecordMode', 'CuttingNumber']);
    expect(Object.keys(saved.rooms[0])).toEqual(['AutoRecord', 'Mine', 'RoomId', 'CuttingMode', 'RecordDanmaku']);
    expect(saved.rooms[0].AutoRecord).toEqual({ HasValue: true, Value: false });
    expect(saved.rooms[0].RecordDanmaku).toEqual({ HasValue: true, Value: false });
    expect(saved.global.Note).toBe('mine');
    expect(readFileSync(join(dir, 'config.backup.json'), 'utf8')).toBe(text);
    // A new room and a removed one: the others keep their order.
    store.addRoom(8, false);
    store.save();
    expect(JSON.parse(readFileSync(path, 'utf8')).rooms.map((r: { RoomId: { Value: number } }) => r.RoomId.Value)).toEqual([7, 8]);
  });

  it('never writes in memory-only (portable) mode', () => {
    const dir = workDir();
    const store = new ConfigStore();
    store.addRoom(1, true);
    store.save();
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});
