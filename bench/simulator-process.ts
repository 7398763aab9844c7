// The live-service simulator as its own process (`liverec simulate`): start, per-room counters, stop.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { packageRoot } from '../src/paths.js';
import { OutputTail, waitForLine } from './child-output.js';
import { stopChild, track } from './cleanup.js';
import { getJson } from './http-json.js';

export const cliPath = join(packageRoot, 'dist', 'src', 'cli', 'main.js');

/** The counters of one simulated room that the benchmark reads (GET /_sim/rooms). */
export interface SimRoomCounters {
  roomId: number;
  bytesServed: number;
  mediaMsServed: number;
  streamConnections: number;
  openStreams: number;
}

interface SimRoomJson {
  roomId: number;
  openStreams: number;
  counters: { bytesServed: number; mediaMsServed: number; streamConnections: number };
}

export interface SimulatorProcess {
  url: string;
  pid: number;
  roomIds: number[];
  counters(): Promise<Map<number, SimRoomCounters>>;
  stop(): Promise<void>;
}

export const simRoomIds = (rooms: number): number[] => Array.from({ length: rooms }, (_, i) => 10001 + i);

export async function startSimulator(rooms: number, bitrateKbps: number): Promise<SimulatorProcess> {
  const child = track(spawn(process.execPath, [cliPath, 'simulate', '--port', '0', '--rooms', String(rooms), '--bitrate-kbps', String(bitrateKbps)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  const errors = new OutputTail(child.stderr);
  let url: string;
  try {
    url = (await waitForLine(child.stdout!, /http:\/\/127\.0\.0\.1:\d+/, once(child, 'exit'), 30_000, 'the simulator'))[0];
  } catch (err) {
    await stopChild(child, 2000);
    throw new Error(`${(err as Error).message}${errors.tail ? `\n${errors.tail}` : ''}`);
  }
  child.stdout!.resume();
  return {
    url,
    pid: child.pid!,
    roomIds: simRoomIds(rooms),
    async counters() {
      const list = await getJson<SimRoomJson[]>(`${url}/_sim/rooms`);
      return new Map(list.map((r) => [r.roomId, { roomId: r.roomId, openStreams: r.openStreams, ...r.counters }]));
    },
    stop: () => stopChild(child),
  };
}
