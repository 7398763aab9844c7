// Command-line options of `npm run bench` (the multi-room benchmark), validated, with their defaults.
import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Room counts to run, in order: one entry without --sweep. */
  rooms: number[];
  bitrateKbps: number;
  seconds: number;
  warmupSeconds: number;
  json: boolean;
  sweep: boolean;
  /** Fixed room actors per worker thread, or null for liverec's own default placement (no flag passed). */
  roomsPerWorker: number | null;
  /** Serve this FLV recording instead of the generated 1080p clip nearest the bitrate. */
  clip: string | null;
  /** Pad video with filler NALUs up to the bitrate (flatters recorders that drop filler). */
  padWithFiller: boolean;
  apiRps: number;
  /** Fraction of the API load that is GET /api/room (the whole list); the rest is GET /api/room/{id}. */
  apiListShare: number;
  /** What the simulated rooms offer: FLV (the default protocol users get), or only HLS, which liverec falls back to. */
  protocol: BenchProtocol;
  /** Where results JSON (and the sweep SVG) go. */
  outDir: string | null;
  skipFfmpeg: boolean;
  /**
   * Record with ffmpeg before liverec. Whichever phase runs second writes into page-cache pages the first one's
   * deleted outputs just freed, which on a VM whose free memory goes back to the host is cheaper (docs/performance.md).
   */
  ffmpegFirst: boolean;
  /**
   * Record with both at once (the default), each its own half of 2N simulated rooms with the same content, over
   * the same window. Run one after the other (`--sequential`, or `--ffmpeg-first`), the second phase wrote into
   * the page cache that the first one's deleted outputs had just freed; on a VM whose free memory goes back to its
   * host, those pages cost a fraction of the system time of fresh ones (1 GiB here: 0.20 against 1.70 s), so the
   * ratio depended on the order. At once, both write into the same pool of pages (docs/performance.md, "Sixteenth pass").
   */
  concurrent: boolean;
}

export const BENCH_PROTOCOLS = ['flv', 'hls-fmp4', 'hls-ts'] as const;
export type BenchProtocol = (typeof BENCH_PROTOCOLS)[number];

export const USAGE = `usage: npm run bench -- [--rooms N] [--bitrate-kbps K] [--seconds S] [--warmup S] [--json]
       [--sweep 10,50,100,200] [--rooms-per-worker K] [--api-rps R] [--api-list-share F] [--out DIR] [--no-ffmpeg]
       [--sequential | --ffmpeg-first] [--clip FILE.flv] [--pad-with-filler] [--protocol flv|hls-fmp4|hls-ts]
defaults: --rooms 20 --bitrate-kbps 6000 --seconds 30 --warmup 5 --api-rps 500 (0 = no API load window) --api-list-share 0 (all GET /api/room/{id})
          liverec and ffmpeg record at once, each on its own N rooms; --sequential: liverec, then ffmpeg on the same rooms
          content: the generated 1080p25 clip nearest --bitrate-kbps (real entropy, no filler), or --clip
          --rooms-per-worker: not passed, so liverec uses its own default placement   --out bench/results
          --protocol flv: rooms offer FLV (and HLS); hls-fmp4 / hls-ts: rooms offer only that HLS format, the same
          video cut into segments; liverec keeps its default RecordingProtocol and falls back to it`;

function positiveInt(name: string, v: string | undefined, fallback: number, min = 1): number {
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min) throw new Error(`--${name} must be an integer >= ${min}, got "${v}"`);
  return Number(v);
}

function share(v: string | undefined): number {
  if (v === undefined) return 0;
  const n = Number(v);
  if (!/^(0|1|0?\.\d+|1\.0*)$/.test(v) || !(n >= 0 && n <= 1)) throw new Error(`--api-list-share must be a fraction from 0 to 1, got "${v}"`);
  return n;
}

export function parseOptions(argv: string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      rooms: { type: 'string' }, 'bitrate-kbps': { type: 'string' }, seconds: { type: 'string' }, warmup: { type: 'string' },
      json: { type: 'boolean' }, sweep: { type: 'string' }, 'rooms-per-worker': { type: 'string' }, 'api-rps': { type: 'string' }, 'api-list-share': { type: 'string' },
      out: { type: 'string' }, 'no-ffmpeg': { type: 'boolean' }, 'ffmpeg-first': { type: 'boolean' }, sequential: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      clip: { type: 'string' }, 'pad-with-filler': { type: 'boolean' }, protocol: { type: 'string' },
    },
  });
  if (values.help) return 'help';
  let rooms = [positiveInt('rooms', values.rooms, 20)];
  if (values.sweep !== undefined) {
    rooms = values.sweep.split(',').map((s) => positiveInt('sweep', s.trim(), 0));
    if (rooms.length === 0) throw new Error('--sweep needs a comma-separated list of room counts');
  }
  if (rooms.some((n) => n > 5000)) throw new Error('at most 5000 rooms');
  const protocol = (values.protocol ?? 'flv') as BenchProtocol;
  if (!BENCH_PROTOCOLS.includes(protocol)) throw new Error(`--protocol must be one of ${BENCH_PROTOCOLS.join(', ')}, got "${values.protocol}"`);
  if (protocol !== 'flv' && values['pad-with-filler']) throw new Error('--pad-with-filler pads FLV streams only');
  return {
    rooms,
    bitrateKbps: positiveInt('bitrate-kbps', values['bitrate-kbps'], 6000),
    seconds: positiveInt('seconds', values.seconds, 30, 2),
    warmupSeconds: positiveInt('warmup', values.warmup, 5, 0),
    json: values.json ?? false,
    sweep: values.sweep !== undefined,
    roomsPerWorker: values['rooms-per-worker'] === undefined ? null : positiveInt('rooms-per-worker', values['rooms-per-worker'], 1),
    apiRps: positiveInt('api-rps', values['api-rps'], 500, 0),
    apiListShare: share(values['api-list-share']),
    outDir: values.out ?? null,
    clip: values.clip ?? null,
    padWithFiller: values['pad-with-filler'] ?? false,
    skipFfmpeg: values['no-ffmpeg'] ?? false,
    ffmpegFirst: values['ffmpeg-first'] ?? false,
    concurrent: !(values.sequential || values['ffmpeg-first'] || values['no-ffmpeg']),
    protocol,
  };
}
