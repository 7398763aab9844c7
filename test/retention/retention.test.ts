// Retention on real files: a work directory past RetentionMaxTotalGB keeps open and pending recordings and deletes the
// oldest closed ones (video + XML + sidecars) in order, with FileDeleted events; the dry run deletes nothing; nothing
// outside the work directory or behind a link is touched.
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileDeletedData, RecorderEvent } from '../../src/events/types.js';
import { GIB } from '../../src/retention/plan.js';
import { Retention } from '../../src/retention/retention.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A recording `name` in room 1001's folder: 2000-byte video, 500-byte XML and 100-byte ASS, all `ageMin` minutes old. */
function recording(dir: string, name: string, ageMin: number, ext = 'flv'): string {
  const folder = join(dir, '1001-streamer');
  mkdirSync(folder, { recursive: true });
  const base = join(folder, name);
  const when = new Date(Date.now() - ageMin * 60_000);
  for (const [suffix, size] of [[`.${ext}`, 2000], ['.xml', 500], ['.ass', 100]] as const) {
    writeFileSync(base + suffix, Buffer.alloc(size, 1));
    utimesSync(base + suffix, when, when);
  }
  return `${base}.${ext}`;
}

function setup(limits: { maxTotalGB?: number; maxAgeDays?: number }, protectedPaths: () => string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'liverec-retention-'));
  dirs.push(dir);
  const events: RecorderEvent[] = [];
  const retention = new Retention({
    workDir: dir,
    limits: () => ({ maxAgeDays: limits.maxAgeDays ?? 0, maxTotalGB: limits.maxTotalGB ?? 0, minFreeGB: 0 }),
    protectedPaths, emit: (e) => void events.push(e),
  });
  return { dir, events, retention };
}

describe('retention', () => {
  it('past RetentionMaxTotalGB: the oldest closed recordings go first, open and pending ones stay, with events', () => {
    let open = '';
    let pending = '';
    // 7 recordings × 2600 bytes = 18200; the limit (as a fraction of a GiB) is 10400 bytes.
    const { dir, events, retention } = setup({ maxTotalGB: 10_400 / GIB }, () => [open, pending]);
    open = recording(dir, 'rec-0-open', 70);
    pending = recording(dir, 'rec-1-pending', 60);
    const closed = [50, 40, 30, 20, 10].map((age, i) => recording(dir, `rec-${i + 2}`, age));
    const preview = retention.preview();
    expect(preview.totalBytes).toBe(18_200);
    expect(preview.deletions.map((d) => d.recording.key)).toEqual(['1001-streamer/rec-2', '1001-streamer/rec-3', '1001-streamer/rec-4']);
    expect(preview.protected).toEqual(['1001-streamer/rec-0-open', '1001-streamer/rec-1-pending']);
    expect(existsSync(closed[0]!)).toBe(true); // the dry run deleted nothing

    retention.run();
    const deleted = events.map((e) => e.EventData as FileDeletedData);
    expect(events.map((e) => e.EventType)).toEqual(['FileDeleted', 'FileDeleted', 'FileDeleted']);
    expect(deleted.map((d) => d.RelativePath)).toEqual(['1001-streamer/rec-2.flv', '1001-streamer/rec-3.flv', '1001-streamer/rec-4.flv']);
    expect(deleted[0]).toMatchObject({ RoomId: 1001, Reason: 'max-total', FileSize: 2600, Files: ['1001-streamer/rec-2.ass', '1001-streamer/rec-2.flv', '1001-streamer/rec-2.xml'].sort() });
    for (const f of closed.slice(0, 3)) for (const ext of ['.flv', '.xml', '.ass']) expect(existsSync(f.replace(/\.flv$/, ext))).toBe(false);
    for (const f of [open, pending, ...closed.slice(3)]) expect(existsSync(f)).toBe(true);
    expect(retention.preview()).toMatchObject({ totalBytes: 10_400, deletions: [] });
  });

  it('RetentionMaxAgeDays deletes only what is older, and off means nothing is deleted', () => {
    const { dir, events, retention } = setup({ maxAgeDays: 1 }, () => []);
    const old = recording(dir, 'old', 2 * 24 * 60, 'mp4');
    const fresh = recording(dir, 'fresh', 60);
    retention.run();
    expect(events.map((e) => (e.EventData as FileDeletedData).Reason)).toEqual(['max-age']);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(fresh)).toBe(true);

    const off = setup({}, () => []);
    recording(off.dir, 'ancient', 1000 * 24 * 60);
    off.retention.run();
    expect(off.events).toEqual([]);
  });

  it('never follows a link out of the work directory', () => {
    const outside = mkdtempSync(join(tmpdir(), 'liverec-outside-'));
    dirs.push(outside);
    writeFileSync(join(outside, 'precious.flv'), Buffer.alloc(5000, 1));
    const { dir, retention } = setup({ maxTotalGB: 1 / GIB }, () => []);
    symlinkSync(outside, join(dir, 'linked'));
    symlinkSync(join(outside, 'precious.flv'), join(dir, 'link.flv'));
    recording(dir, 'mine', 10);
    retention.run();
    expect(existsSync(join(outside, 'precious.flv'))).toBe(true);
    expect(existsSync(join(dir, '1001-streamer', 'mine.flv'))).toBe(false);
  });
});
