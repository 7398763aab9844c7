// Command-line options of `npm run bench` (the multi-room benchmark), validated, with their defaults.
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Room counts to run, in order: one entry without --sweep. */
  rooms: number[];
  bitrateKbps: number;
  seconds: number;
  warmupSeconds: number;
  json: boolean;
  sweep: boolean;
  /** Fixed room actors per worker thread, or null for the default of each room count (defaultRoomsPerWorker). */
  roomsPerWorker: number | null;
  apiRps: number;
  /** Where results JSON (and the sweep SVG) go. */
  outDir: string | null;
  skipFfmpeg: boolean;
}

export const USAGE = `usage: npm run bench -- [--rooms N] [--bitrate-kbps K] [--seconds S] [--warmup S] [--json]
       [--sweep 10,50,100,200] [--rooms-per-worker K] [--api-rps R] [--out DIR] [--no-ffmpeg]
defaults: --rooms 20 --bitrate-kbps 6000 --seconds 30 --warmup 5 --api-rps 500 (0 = no API load window)
          --rooms-per-worker: ceil(rooms / (2 x cores)), i.e. at most 2 room-host threads per core   --out bench/results`;

/**
 * At most two room-host threads per core: ceil(rooms / (2 x cores)) rooms per thread, so up to 2 x cores rooms
 * still get a thread each. Every thread carries its own heap, module graph, timers and wake-ups: on 2 cores at
 * 6 Mbps, 1 room per thread cost 22.8 MiB and 0.78 % CPU per room at 20 rooms and 13.6 MiB / 0.73 % at 100,
 * against 9.5 MiB / 0.50 % (5 per thread) and 3.0 MiB / 0.17 % (25 per thread) with this default. At 50 rooms,
 * 1/5/13/25/50 per thread gave 22/9.2/6.3/5.0/3.6 MiB per room and 52/33/21/20/18 % CPU: past a few threads
 * the gain flattens, while two threads per core keep one busy host from holding every room on one core.
 */
export function defaultRoomsPerWorker(rooms: number, cores = availableParallelism()): number {
  return Math.max(1, Math.ceil(rooms / (2 * cores)));
}

function positiveInt(name: string, v: string | undefined, fallback: number, min = 1): number {
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min) throw new Error(`--${name} must be an integer >= ${min}, got "${v}"`);
  return Number(v);
}

export function parseOptions(argv: string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      rooms: { type: 'string' }, 'bitrate-kbps': { type: 'string' }, seconds: { type: 'string' }, warmup: { type: 'string' },
      json: { type: 'boolean' }, sweep: { type: 'string' }, 'rooms-per-worker': { type: 'string' }, 'api-rps': { type: 'string' },
      out: { type: 'string' }, 'no-ffmpeg': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  let rooms = [positiveInt('rooms', values.rooms, 20)];
  if (values.sweep !== undefined) {
    rooms = values.sweep.split(',').map((s) => positiveInt('sweep', s.trim(), 0));
    if (rooms.length === 0) throw new Error('--sweep needs a comma-separated list of room counts');
  }
  if (rooms.some((n) => n > 5000)) throw new Error('at most 5000 rooms');
  return {
    rooms,
    bitrateKbps: positiveInt('bitrate-kbps', values['bitrate-kbps'], 6000),
    seconds: positiveInt('seconds', values.seconds, 30, 2),
    warmupSeconds: positiveInt('warmup', values.warmup, 5, 0),
    json: values.json ?? false,
    sweep: values.sweep !== undefined,
    roomsPerWorker: values['rooms-per-worker'] === undefined ? null : positiveInt('rooms-per-worker', values['rooms-per-worker'], 1),
    apiRps: positiveInt('api-rps', values['api-rps'], 500, 0),
    outDir: values.out ?? null,
    skipFfmpeg: values['no-ffmpeg'] ?? false,
  };
}
