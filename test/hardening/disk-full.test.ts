// A full disk on a small tmpfs: no file below MinFreeSpaceMB, no zero-byte churn, a state that says so, resume on space.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, truncateSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { probe } from '../support/media-tools.js';
import { type Harness, sleep, startHarness } from '../rooms/harness.js';
import { until } from '../webhook/helpers.js';

const ROOM = 35001;
const MIB = 1024 * 1024;

function tryMount(dir: string): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return String((err as { stderr?: Buffer }).stderr ?? err).trim();
  }
}

const mountPoint = mkdtempSync(join(tmpdir(), 'liverec-diskfull-'));
const mountError = tryMount(mountPoint);
if (mountError) console.warn(`disk-full test skipped: cannot mount a tmpfs here (${mountError})`);

/** Appends to `path` until the file system refuses (ENOSPC). */
function fillUp(path: string): void {
  const fd = openSync(path, 'a');
  try {
    for (;;) writeSync(fd, Buffer.alloc(64 * 1024));
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(mountError !== null)('recording on a full disk (8 MiB tmpfs)', () => {
  let h: Harness;
  const filler = join(mountPoint, 'filler.bin');
  const staleTmp = join(mountPoint, 'config.ABC123.tmp');
  beforeAll(async () => {
    writeFileSync(staleTmp, '{"half": ');
    utimesSync(staleTmp, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000)); // left by an earlier run
    writeFileSync(filler, Buffer.alloc(7 * MIB)); // about 1 MiB left: below the 2-MiB guard
    h = await startHarness({
      rooms: [{ roomId: ROOM, live: true, bitrateKbps: 4000 }],
      global: { MinFreeSpaceMB: 2 },
      workDir: mountPoint,
    });
  });
  afterAll(async () => {
    await h?.close();
    try {
      execFileSync('umount', [mountPoint], { stdio: 'pipe' });
    } catch {
      // already unmounted
    }
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it('removes temp files of a previous run at start', () => {
    expect(existsSync(staleTmp)).toBe(false);
  });

  it('opens no file below MinFreeSpaceMB and says so in the room state', async () => {
    const room = h.service.recorder.findRoom(ROOM)!;
    await until(() => room.state.waitingForDiskSpace, 20_000, 'waitingForDiskSpace');
    await sleep(4000);
    expect(h.events.filter((e) => e.EventType === 'FileOpening')).toEqual([]);
    expect(room.state.recording).toBe(false);
  });

  it('records when space returns, stops at ENOSPC without churning files, and resumes again', async () => {
    const room = h.service.recorder.findRoom(ROOM)!;
    truncateSync(filler, 4 * MIB); // ~4 MiB free: above the guard
    await h.waitEvent('FileOpening', undefined, 20_000);
    await sleep(1500);
    fillUp(filler); // another writer takes the rest of the disk: the next write fails with ENOSPC
    const closed = (await h.waitEvent('FileClosed', undefined, 20_000)).EventData as FileClosedData;
    await until(() => room.state.waitingForDiskSpace, 10_000, 'waitingForDiskSpace after ENOSPC');
    const opened = h.events.filter((e) => e.EventType === 'FileOpening').length;
    await sleep(5000);
    expect(h.events.filter((e) => e.EventType === 'FileOpening').length).toBe(opened); // no new file per retry
    expect(room.state.recording).toBe(false);
    const p = await probe(join(mountPoint, closed.RelativePath));
    expect(p.errors).toBe('');
    expect(p.codecs.sort()).toEqual(['aac', 'h264']);

    rmSync(filler);
    rmSync(join(mountPoint, closed.RelativePath));
    const from = h.events.length;
    await h.waitEvent('FileOpening', undefined, 20_000, from);
    await until(() => !room.state.waitingForDiskSpace && room.state.recording, 10_000, 'recording again');
  });
});
