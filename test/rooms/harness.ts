// Test harness for the recorder: a real simulator, the real service (workers, files, API off) and an event log.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigStore } from '../../src/config/store.js';
import { EventBus } from '../../src/events/bus.js';
import type { EventType, RecorderEvent } from '../../src/events/types.js';
import { startService, type Service } from '../../src/service.js';
import { Simulator, type SimRoomInit, type SimulatorOptions } from '../../src/simulator/index.js';
import type { Overrides } from '../../src/config/store.js';
import type { ClientTestSwitches } from '../../src/bilibili/client-options.js';

export interface Harness {
  sim: Simulator;
  service: Service;
  workDir: string;
  events: RecorderEvent[];
  /** Resolves with the first event (from `from` on) matching; rejects after `timeoutMs`. */
  waitEvent(type: EventType, filter?: (e: RecorderEvent) => boolean, timeoutMs?: number, from?: number): Promise<RecorderEvent>;
  close(): Promise<void>;
}

/** Timings short enough for tests; the behaviour under test is the same as with brec's defaults. */
export const FAST: Overrides = {
  TimingStreamRetry: 1000,
  TimingWatchdogTimeout: 2000,
  TimingStreamConnect: 3000,
  TimingDanmakuRetry: 1000,
  // Tests start many rooms at once and assert outcomes, not the pacing of the default budget (57 calls a minute).
  ApiBudgetPerMinute: 600,
};

export async function startHarness(options: {
  rooms: SimRoomInit[];
  record?: number[];
  global?: Overrides;
  /** Per-room overrides, by configured room id. */
  roomConfig?: Record<number, Overrides>;
  roomsPerWorker?: number;
  allowTestFaults?: boolean;
  /** Also start the HTTP API (on a free loopback port) in this process. */
  api?: boolean;
  /** Record into this (existing) directory instead of a new temporary one. */
  workDir?: string;
  /** Simulator options (e.g. riskPerMinute). */
  sim?: SimulatorOptions;
  /** Test-only: liverec's WBI signing or guest identity off for the whole run (ClientTestSwitches). */
  clientTestSwitches?: ClientTestSwitches;
  /** Runs once the simulator is up and its rooms exist, before the service starts (e.g. arm captured answers). */
  beforeStart?: (sim: Simulator, url: string) => Promise<void>;
  /** The live API host the service uses (read after beforeStart; e.g. a proxy in front of the simulator). */
  liveApiHost?: () => string;
}): Promise<Harness> {
  // Recording tests run as a logged-in user would be served: without the guest cap a guest would record the master
  // playlist's HLS (guest original, issue 47), which test/streams2026/guest-original.test.ts covers with
  // `sim: { guestQnCap: true }`. Rooms stay on the clip timeline unless they ask for `liveStream`: tests such as
  // danmaku/recording.test.ts model media positions from a connection's first tag at 0 (0 % within 100 ms on one clock).
  // Danmaku senders likewise unmasked (they carry the generator's sequence and position); test/accounts covers the mask.
  const sim = new Simulator({ guestQnCap: false, guestDanmakuMask: false, oneClockByDefault: false, ...options.sim });
  const running = await sim.start();
  for (const r of options.rooms) sim.createRoom(r);
  await options.beforeStart?.(sim, running.url);
  const workDir = options.workDir ?? mkdtempSync(join(tmpdir(), 'liverec-rec-'));
  const config = new ConfigStore();
  Object.assign(config.global, FAST, options.global ?? {}, { LiveApiHost: options.liveApiHost?.() ?? running.url });
  for (const id of options.record ?? options.rooms.map((r) => r.roomId)) {
    Object.assign(config.addRoom(id, true).overrides, options.roomConfig?.[id] ?? {});
  }
  const bus = new EventBus();
  const events: RecorderEvent[] = [];
  const waiters = new Set<() => void>();
  bus.on((e) => {
    events.push(e);
    for (const w of waiters) w();
  });
  const service = await startService({
    workDir, config, bus, roomsPerWorker: options.roomsPerWorker, allowTestFaults: options.allowTestFaults, clientTestSwitches: options.clientTestSwitches,
    api: options.api ? { bind: 'http://127.0.0.1:0', env: {} } : undefined,
  });
  const waitEvent: Harness['waitEvent'] = (type, filter = () => true, timeoutMs = 20_000, from = 0) =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const hit = events.slice(from).find((e) => e.EventType === type && filter(e));
        if (!hit) return false;
        cleanup();
        resolve(hit);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${type} event within ${timeoutMs} ms; got ${events.map((e) => e.EventType).join(', ')}`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        waiters.delete(listener);
      };
      const listener = (): void => void check();
      waiters.add(listener);
      check();
    });
  return {
    sim, service, workDir, events, waitEvent,
    close: async () => {
      await service.close();
      await running.close();
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export const roomOf = (e: RecorderEvent): number => e.EventData.RoomId;
