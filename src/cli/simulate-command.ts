// `liverec simulate`: runs the live-service simulator until SIGINT/SIGTERM, optionally with N live rooms.
import { type Command, InvalidArgumentError } from 'commander';
import { type Clip, loadClipFile } from '../simulator/clips.js';
import { attachHls } from '../simulator/hls/real-hls-clips.js';
import { realClips } from '../simulator/real-clips.js';
import { SIM_FORMATS, type SimFormat } from '../simulator/room.js';
import { Simulator } from '../simulator/simulator.js';
import { SIM_SPECIALS } from '../simulator/special-rooms.js';

interface SimulateOptions {
  port: number;
  host: string;
  rooms: number;
  bitrateKbps: number;
  clip?: string;
  smallClips?: boolean;
  padWithFiller?: boolean;
  formats?: SimFormat[];
  lenient?: boolean;
  strictAll?: boolean;
  danmakuTcpPort?: number;
  guestCap?: boolean;
  guestMask?: boolean;
  specialRooms?: boolean;
  riskPerMinute?: number;
  danmakuRate: number;
}

/** Danmaku a second in each pre-created room by default: enough that a first recording has comments, super chats, gifts and guards to show. */
export const DEFAULT_SIM_DANMAKU_RATE = 2;

function rate(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n > 1000) throw new InvalidArgumentError(`--danmaku-rate must be a number of messages a second from 0 to 1000, got "${value}"`);
  return n;
}

/**
 * --clip FILE, else the committed small clips (--small-clips), else generated 1080p real content. With --formats
 * naming an HLS format, the content is also cut into HLS segments (once, cached); without it, HLS requests get
 * the committed clips' segments, and no start pays for cutting.
 */
async function content(opts: SimulateOptions): Promise<Clip[] | undefined> {
  if (opts.smallClips) return undefined;
  const clips = opts.clip ? [loadClipFile(opts.clip)] : await realClips([opts.bitrateKbps]);
  if (opts.formats) await attachHls(clips, opts.formats);
  return clips;
}

function formatList(value: string): SimFormat[] {
  const list = value.split(',').map((f) => f.trim());
  const bad = list.filter((f) => !SIM_FORMATS.includes(f as SimFormat));
  if (list.length === 0 || bad.length > 0) throw new InvalidArgumentError(`--formats takes a comma-separated list of ${SIM_FORMATS.join(', ')}, got "${value}"`);
  return [...new Set(list)] as SimFormat[];
}

function int(name: string, min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`--${name} must be an integer from ${min} to ${max}, got "${value}"`);
    }
    return Number(value);
  };
}

const STRICT_LINE = {
  lenient: 'lenient: unsigned calls accepted',
  all: 'strict-all: buvid3 on every live call, WBI on getInfoByRoom/getDanmuInfo',
  evidence: 'refusals as the sources show: WBI on getInfoByRoom/getDanmuInfo, buvid3 on getDanmuInfo',
} as const;

export function registerSimulateCommand(program: Command): void {
  program
    .command('simulate')
    .description('Run a local simulator of the live service (API, FLV streams, danmaku) for tests, demos and benchmarks')
    .option('--port <n>', 'port to listen on (0 = any free port)', int('port', 0, 65535), 0)
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--rooms <n>', 'pre-create N live rooms: ids 10001…10000+N, short ids 1…N, names sim-<i>', int('rooms', 0, 100_000), 0)
    .option('--bitrate-kbps <n>', 'bitrate of the pre-created rooms: picks the generated 1080p clip nearest it (1.5/3/6/10 Mbps video)', int('bitrate-kbps', 1, 100_000), 2000)
    .option('--clip <file.flv>', 'serve this FLV recording (H.264/AAC, looped from its first keyframe) instead of generated content')
    .option('--small-clips', 'serve the small committed 360p/480p clips (about 0.4 Mbps; no ffmpeg needed)')
    .option('--formats <list>', 'what the pre-created rooms offer, of flv, fmp4 and ts (HLS), serving the content in each (default: all three, HLS from the small clips); without flv, recorders fall back to HLS', formatList)
    .option('--pad-with-filler', 'pad video with H.264 filler NALUs up to --bitrate-kbps (recorders drop filler: flatters them)')
    .option('--lenient', '2024 behaviour for old clients: accept unsigned live API calls and calls without a buvid3 cookie (default: refuse exactly what a source shows the service refusing, docs/bilibili-2026.md)')
    .option('--strict-all', 'experiments: refuse every live API call without a buvid3 cookie and unsigned getInfoByRoom/getDanmuInfo (stricter than the service is shown to be)')
    .option('--danmaku-tcp-port <n>', 'port of the raw-TCP danmaku listener named as host_list port (the service uses 2243; 0 = any free port)', int('danmaku-tcp-port', 0, 65535), 0)
    .option('--no-guest-cap', 'serve guests (no SESSDATA cookie) the quality they ask for (default: current_qn 250 while accept_qn lists more, as the service answers guests)')
    .option('--no-guest-mask', 'show guests (no SESSDATA cookie) danmaku senders as to a logged-in user (default: uid 0 and masked names, and LOG_IN_NOTICE, as the service shows guests)')
    .option('--special-rooms', 'also create live rooms a guest cannot record: 20001 paid, 20002 password, 20003 guard-only, 20004 DRM-only')
    .option('--danmaku-rate <n>', 'danmaku messages a second in each pre-created room (comments, super chats, gifts, guards); 0 = none', rate, DEFAULT_SIM_DANMAKU_RATE)
    .option('--risk-per-minute <n>', 'risk control: answer 412 to an IP making more than N live-API calls a minute (0 = off)', int('risk-per-minute', 0, 1_000_000), 0)
    .action(async (opts: SimulateOptions) => {
      if (opts.lenient && opts.strictAll) program.error('error: --lenient and --strict-all exclude each other', { exitCode: 2, code: 'liverec.conflictingOptions' });
      const sim = new Simulator({ content: await content(opts), lenient: opts.lenient ?? false, strictAll: opts.strictAll ?? false, guestQnCap: opts.guestCap ?? true, guestDanmakuMask: opts.guestMask ?? true, riskPerMinute: opts.riskPerMinute ?? 0 });
      const running = await sim.start({ port: opts.port, host: opts.host, danmakuTcpPort: opts.danmakuTcpPort });
      for (let i = 1; i <= opts.rooms; i++) {
        sim.createRoom({ roomId: 10000 + i, shortId: i, name: `sim-${i}`, title: `Simulated room ${i}`, live: true, bitrateKbps: opts.bitrateKbps, padWithFiller: opts.padWithFiller ?? false, formats: opts.formats });
        if (opts.danmakuRate > 0) sim.danmakuRate(10000 + i, { rate: opts.danmakuRate });
      }
      if (opts.specialRooms) SIM_SPECIALS.forEach((special, i) => sim.createRoom({ roomId: 20001 + i, name: `sim-${special}`, title: `Simulated ${special} room`, live: true, special }));
      const shown = opts.host === '127.0.0.1' || opts.host === '0.0.0.0' ? running.url : `http://${opts.host}:${running.port}`;
      process.stdout.write(`liverec simulator listening on ${shown} (${opts.rooms} rooms${opts.rooms > 0 ? `, ${opts.danmakuRate} danmaku/s each` : ''}; ${STRICT_LINE[sim.strictMode]}; control API ${shown}/_sim/rooms)\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await running.close();
      process.stdout.write('liverec simulator stopped\n');
    });
}
