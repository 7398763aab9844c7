// A start or stop shows at once and stays: a report the room's thread sent before it saw the command cannot undo it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import type { RoomCommand } from '../../src/rooms/protocol.js';
import { Room } from '../../src/rooms/room.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-intent-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A control whose commands wait until the test lets them through or fails them. */
function heldControl(): { control: { command(id: number, c: RoomCommand): Promise<void> }; release(): void; fail(): void } {
  const pending: { resolve: () => void; reject: (e: Error) => void }[] = [];
  return {
    control: { command: () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })) },
    release: () => pending.shift()!.resolve(),
    fail: () => pending.shift()!.reject(new Error('worker gone')),
  };
}

describe('a room\'s start and stop', () => {
  it('ignores the thread\'s stale autoRecordForThisSession until it reports the asked value, then follows it again', async () => {
    const store = ConfigStore.load(dir);
    const held = heldControl();
    const room = new Room(store.addRoom(11, true), held.control);
    const stopped = room.stop();
    expect(room.state.autoRecordForThisSession).toBe(false);
    // The thread's first full state, sent before it took the stop: the mirror keeps the stop; other fields still apply.
    room.apply({ state: { autoRecordForThisSession: true, title: 'live now' } });
    expect(room.state.autoRecordForThisSession).toBe(false);
    expect(room.state.title).toBe('live now');
    // The thread took the stop and says so; from here its reports count again (a stream ending re-arms the room).
    room.apply({ state: { autoRecordForThisSession: false } });
    held.release();
    await stopped;
    room.apply({ state: { streaming: false, autoRecordForThisSession: true } });
    expect(room.state.autoRecordForThisSession).toBe(true);
  });

  it('takes the last of a quick start-stop-start, and follows the thread again once a command failed', async () => {
    const store = ConfigStore.load(dir);
    const held = heldControl();
    const room = new Room(store.addRoom(12, true), held.control);
    void room.stop().catch(() => undefined);
    void room.start().catch(() => undefined);
    const lastStop = room.stop();
    room.apply({ state: { autoRecordForThisSession: true } }); // the thread answering the start in between
    expect(room.state.autoRecordForThisSession).toBe(false);
    held.release();
    held.release();
    held.fail();
    await expect(lastStop).rejects.toThrow('worker gone');
    room.apply({ state: { autoRecordForThisSession: true } });
    expect(room.state.autoRecordForThisSession).toBe(true);
  });
});
