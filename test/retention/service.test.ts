// Retention in the running service: with RetentionMaxTotalGB set through the API, GET /api/retention lists the oldest
// closed recordings and keeps the open one; a closed file then triggers the run, which deletes them oldest first with
// FileDeleted events and never the file being recorded.
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileDeletedData } from '../../src/events/types.js';
import { eventually, startWebSetup, type WebSetup } from '../web/setup.js';

const ROOM = 48001;

describe('retention in the service', () => {
  let s: WebSetup;
  const old: string[] = [];

  beforeAll(async () => {
    s = await startWebSetup({ rooms: [{ roomId: ROOM, name: 'kept', title: 'retention', live: true, bitrateKbps: 300 }], record: [ROOM] });
    await eventually('recording', () => (s.service.recorder.findRoom(ROOM)?.recordingStats.totalOutputBytes ?? 0) > 0, 60_000, 100);
    // Three older recordings of another room, with their danmaku XML, 3, 2 and 1 days old.
    mkdirSync(join(s.workDir, '9999-archive'));
    for (const days of [3, 2, 1]) {
      const base = join(s.workDir, '9999-archive', `录制-9999-${days}d`);
      const when = new Date(Date.now() - days * 86_400_000);
      for (const ext of ['.flv', '.xml']) {
        writeFileSync(base + ext, Buffer.alloc(4096, 1));
        utimesSync(base + ext, when, when);
      }
      old.push(`${base}.flv`);
    }
    const saved = await fetch(`${s.url}/api/config/global`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ optionalRetentionMaxTotalGB: { hasValue: true, value: '0.000000001' } }),
    });
    expect(saved.status).toBe(200);
  }, 120_000);

  afterAll(() => s?.close());

  it('the dry run lists the closed recordings oldest first and keeps the open one', async () => {
    const preview = (await (await fetch(`${s.url}/api/retention`)).json()) as { enabled: boolean; deletions: { recording: string; reason: string; files: string[] }[]; protected: string[] };
    expect(preview.enabled).toBe(true);
    expect(preview.deletions.map((d) => d.recording)).toEqual(['9999-archive/录制-9999-3d', '9999-archive/录制-9999-2d', '9999-archive/录制-9999-1d']);
    expect(preview.deletions[0]!.files).toEqual(['9999-archive/录制-9999-3d.flv', '9999-archive/录制-9999-3d.xml']);
    expect(preview.deletions.every((d) => d.reason === 'max-total')).toBe(true);
    expect(preview.protected).toHaveLength(1);
    expect(preview.protected[0]).toMatch(new RegExp(`^${ROOM}-kept/`));
    expect(old.every((f) => existsSync(f))).toBe(true);
  });

  it('a closed file triggers the run: oldest first, with events; the file being recorded stays', async () => {
    expect((await fetch(`${s.url}/api/room/${ROOM}/split`, { method: 'POST' })).status).toBe(200);
    const deleted = await eventually('four deletions', () => {
      const d = s.events.filter((e) => e.EventType === 'FileDeleted').map((e) => e.EventData as FileDeletedData);
      return d.length >= 4 ? d : null;
    }, 60_000, 100);
    expect(deleted.slice(0, 3).map((d) => d.RelativePath)).toEqual(['9999-archive/录制-9999-3d.flv', '9999-archive/录制-9999-2d.flv', '9999-archive/录制-9999-1d.flv']);
    expect(deleted[0]).toMatchObject({ RoomId: 9999, Reason: 'max-total', FileSize: 8192 });
    // The file the split closed goes too (it has no pending job); the new one being written does not.
    expect(deleted[3]).toMatchObject({ RoomId: ROOM, Name: 'kept' });
    expect(old.some((f) => existsSync(f))).toBe(false);
    const open = [...s.service.recorder.openPaths()];
    expect(open).toHaveLength(1);
    expect(existsSync(open[0]!)).toBe(true);
  });
});
