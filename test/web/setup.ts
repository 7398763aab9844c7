// A real simulator and the real service with its HTTP API (optionally behind Basic auth), for the web UI, SSE and metrics tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigStore } from '../../src/config/store.js';
import { EventBus } from '../../src/events/bus.js';
import type { RecorderEvent } from '../../src/events/types.js';
import { startService, type Service } from '../../src/service.js';
import { Simulator, type SimRoomInit } from '../../src/simulator/index.js';
import type { Overrides } from '../../src/config/store.js';
import { FAST } from '../rooms/harness.js';

export interface WebSetup {
  sim: Simulator;
  service: Service;
  url: string;
  workDir: string;
  events: RecorderEvent[];
  /** Authorization header value ('' without auth). */
  auth: string;
  close(): Promise<void>;
}

export const simRooms = (ids: number[], bitrateKbps = 600): SimRoomInit[] =>
  ids.map((roomId, i) => ({ roomId, name: `streamer${i + 1}`, title: `title ${roomId}`, live: true, bitrateKbps }));

export async function startWebSetup(options: {
  rooms: SimRoomInit[]; record: number[]; user?: string; pass?: string; roomConfig?: Record<number, Overrides>;
}): Promise<WebSetup> {
  const sim = new Simulator();
  const running = await sim.start();
  for (const r of options.rooms) sim.createRoom(r);
  const workDir = mkdtempSync(join(tmpdir(), 'liverec-web-'));
  const config = ConfigStore.load(workDir);
  Object.assign(config.global, FAST, { LiveApiHost: running.url });
  for (const id of options.record) Object.assign(config.addRoom(id, true).overrides, options.roomConfig?.[id] ?? {});
  const bus = new EventBus();
  const events: RecorderEvent[] = [];
  bus.on((e) => events.push(e));
  const service = await startService({
    workDir, config, bus,
    api: { bind: 'http://127.0.0.1:0', basicUser: options.user, basicPass: options.pass, env: {} },
  });
  const auth = options.user ? `Basic ${Buffer.from(`${options.user}:${options.pass ?? ''}`).toString('base64')}` : '';
  return {
    sim, service, url: service.api!.url, workDir, events, auth,
    close: async () => {
      await service.close();
      await running.close();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` returns a truthy value; rejects with `what` after `timeoutMs` (generous: the machine is shared). */
export async function eventually<T>(what: string, check: () => T | Promise<T>, timeoutMs = 30_000, everyMs = 100): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
