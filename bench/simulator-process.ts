// The live-service simulator as its own process (`liverec simulate`): start, per-room counters, stop.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { cliEntry } from '../src/paths.js';
import { OutputTail, waitForLine } from './child-output.js';
import { stopChild, track } from './cleanup.js';
import { getJson } from './http-json.js';

export const cliPath = cliEntry;

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
  counters: { bytesServed: number; mediaMsServed: number; streamConnections: number; hlsBytesServed: number; hlsMediaMsServed: number };
}

export interface SimulatorProcess {
  url: string;
  pid: number;
  roomIds: number[];
  /** The clip the first room sends (every pre-created room has the same). */
  content: SimRoomContent | null;
  padWithFiller: boolean;
  counters(): Promise<Map<number, SimRoomCounters>>;
  stop(): Promise<void>;
}

/**
 * The simulator as seen by one recorder of a `--concurrent` run: only `roomIds`, and only their counters, so each
 * phase's served bytes, pace and "every stream closed" checks cover its own rooms.
 */
export function roomSubset(sim: SimulatorProcess, roomIds: number[]): SimulatorProcess {
  const own = new Set(roomIds);
  return {
    ...sim,
    roomIds,
    counters: async () => new Map([...(await sim.counters())].filter(([id]) => own.has(id))),
  };
}

/** Bytes served so far to all rooms (every connection, open or closed). */
export async function servedBytes(sim: SimulatorProcess): Promise<number> {
  let sum = 0;
  for (const c of (await sim.counters()).values()) sum += c.bytesServed;
  return sum;
}

export const simRoomIds = (rooms: number): number[] => Array.from({ length: rooms }, (_, i) => 10001 + i);

/** What the simulated rooms send: a clip file, or the generated clip nearest the bitrate; filler only if asked. */
export interface SimContent {
  clip: string | null;
  padWithFiller: boolean;
  /** Formats the rooms offer (`liverec simulate --formats`); default: FLV and both HLS formats. */
  formats?: readonly ('flv' | 'fmp4' | 'ts')[];
}

export interface SimRoomContent {
  name: string;
  kbps: number;
}

export async function startSimulator(rooms: number, bitrateKbps: number, content: SimContent): Promise<SimulatorProcess> {
  const args = [cliPath, 'simulate', '--port', '0', '--rooms', String(rooms), '--bitrate-kbps', String(bitrateKbps)];
  if (content.clip) args.push('--clip', content.clip);
  if (content.padWithFiller) args.push('--pad-with-filler');
  if (content.formats) args.push('--formats', content.formats.join(','));
  const child = track(spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  const errors = new OutputTail(child.stderr);
  let url: string;
  try {
    // The first start of a bitrate encodes its 1080p clip with ffmpeg (cached afterwards).
    url = (await waitForLine(child.stdout!, /http:\/\/127\.0\.0\.1:\d+/, once(child, 'exit'), 600_000, 'the simulator'))[0];
  } catch (err) {
    await stopChild(child, 2000);
    throw new Error(`${(err as Error).message}${errors.tail ? `\n${errors.tail}` : ''}`);
  }
  child.stdout!.resume();
  const first = rooms > 0 ? await getJson<{ content: SimRoomContent | null }>(`${url}/_sim/rooms/${simRoomIds(1)[0]}`) : null;
  return {
    url,
    pid: child.pid!,
    roomIds: simRoomIds(rooms),
    content: first?.content ?? null,
    padWithFiller: content.padWithFiller,
    async counters() {
      const list = await getJson<SimRoomJson[]>(`${url}/_sim/rooms`);
      // A room is recorded over one protocol, so FLV and HLS counters add up to what that protocol served.
      return new Map(list.map((r) => [r.roomId, {
        roomId: r.roomId, openStreams: r.openStreams, streamConnections: r.counters.streamConnections,
        bytesServed: r.counters.bytesServed + r.counters.hlsBytesServed, mediaMsServed: r.counters.mediaMsServed + r.counters.hlsMediaMsServed,
      }]));
    },
    stop: () => stopChild(child),
  };
}
