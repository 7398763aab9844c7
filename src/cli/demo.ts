// `liverec demo`: the simulator with 3 live rooms and their danmaku, recorded with the API and UI on :2356 (or a free port); events and files printed as they happen.
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { ConfigStore } from '../config/store.js';
import { EventBus } from '../events/bus.js';
import type { RecorderEvent } from '../events/types.js';
import { initLogger } from '../log/logger.js';
import { errorCode } from '../errors.js';
import { startService, type Service, type ServiceOptions } from '../service.js';
import { Simulator } from '../simulator/index.js';
import { realClips, realClipsReady } from '../simulator/real-clips.js';
import { danmakuPathFor } from '../danmaku/recorder.js';
import { probeFile } from './probe.js';

export interface DemoOptions {
  seconds: number;
  port: number;
  /** The port was the default, not asked for: when it is taken (brec's port: a brec may run), any free one will do. */
  portIsDefault: boolean;
  outDir: string;
}

const ROOMS = [
  { roomId: 10001, shortId: 1, name: 'sim-1', title: 'demo: a room with a short id', bitrateKbps: 1500 },
  { roomId: 10002, name: 'sim-2', title: 'demo: 3 Mbps', bitrateKbps: 3000 },
  { roomId: 10003, name: 'sim-3', title: 'demo: 3 Mbps, the stream gets cut', bitrateKbps: 3000 },
];
/** Danmaku messages per second in each room (comments, super chats, gifts, guards: the simulator's mix). */
const DANMAKU_RATE = 3;

/** A path as the user would type it here: relative below the current directory, else absolute. */
const shown = (path: string): string => {
  const rel = relative(process.cwd(), path);
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel;
};
const clock = (): string => new Date().toTimeString().slice(0, 8);
const out = (line: string): boolean => process.stdout.write(`${line}\n`);

function describe(e: RecorderEvent): string {
  const d = e.EventData;
  const room = `room ${d.RoomId} (${d.Name || '?'})`;
  switch (e.EventType) {
    case 'FileOpening': return `${room} opens ${e.EventData.RelativePath}`;
    case 'FileClosed': return `${room} closed ${e.EventData.RelativePath}: ${(e.EventData.FileSize / 1e6).toFixed(2)} MB, ${e.EventData.Duration.toFixed(1)} s`;
    case 'SessionStarted': case 'SessionEnded': return `${room} session ${e.EventData.SessionId.slice(0, 8)}`;
    case 'FileDeleted': return `${room} retention deleted ${e.EventData.RelativePath} (${e.EventData.Reason})`;
    case 'PostProcessed': return `${room} post-processed ${e.EventData.OutputPath}${e.EventData.Succeeded ? '' : ' (a job failed)'}`;
    default: return `${room} ${e.EventType === 'StreamStarted' ? 'went live' : 'went offline'}`;
  }
}

/**
 * Starts the service on the port, or, when the default port is taken, on a free one. Resolves null (after saying
 * why) when it cannot start at all.
 */
async function bindService(options: DemoOptions, start: (bind: string) => Promise<Service>): Promise<Service | null> {
  try {
    return await start(`http://127.0.0.1:${options.port}`);
  } catch (err) {
    const inUse = errorCode(err) === 'API_LISTEN_FAILED' && ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
    if (!inUse || !options.portIsDefault) {
      process.stderr.write(`liverec demo: ${(err as Error).message}\n`);
      return null;
    }
    out(`port ${options.port} is in use (a brec or another liverec may run there): using a free port instead`);
    try {
      return await start('http://127.0.0.1:0');
    } catch (again) {
      process.stderr.write(`liverec demo: ${(again as Error).message}\n`);
      return null;
    }
  }
}

/** The longest the demo waits for every room to record before its seconds start counting anyway. */
const START_WAIT_MS = 60_000;

export async function runDemo(options: DemoOptions): Promise<void> {
  initLogger({ level: 'error' });
  // Real 1080p content at the rooms' bitrates: shipped in the release package, or encoded once by the ffmpeg
  // devDependency in a source checkout; without either, the small committed clips at their own ~0.4 Mbps.
  if (!realClipsReady(ROOMS.map((r) => r.bitrateKbps))) out('encoding the 1080p clips once with ffmpeg (a source checkout; the release package ships them)…');
  const content = await realClips(ROOMS.map((r) => r.bitrateKbps)).catch((err: Error) => {
    out(`no 1080p clips (${err.message.split('\n')[0]}): using the small committed clips`);
    return undefined;
  });
  // The demo shows what a logged-in user records (FLV at qn 10000, danmaku senders by name); the service's guest cap,
  // the HLS answer a guest gets to it and masked senders are `liverec simulate`'s default (docs/accounts.md,
  // docs/recording.md).
  const sim = new Simulator({ content, guestQnCap: false, guestDanmakuMask: false });
  const running = await sim.start();
  for (const r of ROOMS) sim.createRoom({ ...r, live: true });
  // Made here, and removed again if the start fails: a failed demo leaves no empty folder behind.
  const made = !existsSync(options.outDir);
  mkdirSync(options.outDir, { recursive: true });
  const config = new ConfigStore();
  config.global.LiveApiHost = running.url;
  // The demo's live service is the local simulator, which has no risk control to stay under: three rooms starting
  // at once would otherwise spend most of a short demo queued on the default budget (50 calls a minute, burst 5).
  config.global.ApiBudgetPerMinute = 600;
  // Danmaku as brec writes it: an XML file beside each video, with super chats, gifts and guards.
  Object.assign(config.global, { RecordDanmaku: true, RecordDanmakuSuperChat: true, RecordDanmakuGift: true, RecordDanmakuGuard: true, RecordDanmakuFlushInterval: 2 });
  config.addRoom(1, true); // the short id: the recorder resolves it to 10001, as brec does
  config.addRoom(10002, true);
  config.addRoom(10003, true);
  const bus = new EventBus();
  const closed: { path: string; relativePath: string; size: number; duration: number }[] = [];
  let events = 0;
  // The N seconds are seconds of recording: they count from the moment every room has opened its first file (a
  // loaded machine starts them later), or from START_WAIT_MS after the start at the latest.
  const openedRooms = new Set<number>();
  let allRecording: () => void = () => undefined;
  const recording = new Promise<void>((resolve) => (allRecording = resolve));
  bus.on((e) => {
    events++;
    if (e.EventType === 'FileOpening' && openedRooms.add(e.EventData.RoomId).size >= ROOMS.length) allRecording();
    out(`${clock()}  ${e.EventType.padEnd(14)} ${describe(e)}`);
    if (e.EventType === 'FileClosed') {
      const path = `${options.outDir}/${e.EventData.RelativePath}`;
      closed.push({ path, relativePath: e.EventData.RelativePath, size: e.EventData.FileSize, duration: e.EventData.Duration });
    }
  });
  const start = (bind: string): Promise<Service> => startService({ workDir: options.outDir, config, bus, api: { bind } } satisfies ServiceOptions);
  const service = await bindService(options, start);
  if (!service) {
    await running.close();
    // Only a folder this run made, and only while the failed start left it as it was made (the API binds before
    // anything is written; config.json is in memory here).
    if (made) rmSync(options.outDir, { recursive: true, force: true });
    process.exit(1);
  }
  // The address it actually got, once it listens: a user who opens it right away watches the rooms come live.
  const base = service.api!.url;
  const port = service.api!.bind.port;
  out(`liverec demo: the web UI is at ${base}/ui/ (API ${base}/api/room, explorer ${base}/swagger/)`);
  for (const r of ROOMS) sim.danmakuRate(r.roomId, { rate: DANMAKU_RATE });
  out(`recording ${ROOMS.length} rooms and their danmaku into ${options.outDir} for ${options.seconds} s (Ctrl+C stops earlier); simulator at ${running.url}`);

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let cut: NodeJS.Timeout | undefined;
  const startCap = setTimeout(allRecording, START_WAIT_MS);
  const stop = new Promise<void>((resolve) => {
    void recording.then(() => {
      clearTimeout(startCap);
      if (stopped) return;
      timer = setTimeout(resolve, options.seconds * 1000);
      // Halfway through, the CDN cuts room 3's stream mid-tag: the recorder reconnects (filling the gap from HLS where it can).
      cut = setTimeout(() => {
        out(`${clock()}  (simulator)     cutting room 10003's stream in the middle of a tag`);
        sim.addFault(10003, { kind: 'stream-cut' });
      }, (options.seconds * 1000) / 2);
    });
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await stop;
  stopped = true;
  clearTimeout(startCap);
  clearTimeout(timer);
  clearTimeout(cut);
  out(`${clock()}  stopping: closing files with final metadata…`);
  await service.close();
  await running.close();

  out('\nsummary');
  let bytes = 0;
  let xml = 0;
  for (const f of closed) {
    bytes += f.size;
    const probe = await probeFile(f.path);
    out(`  ${relative(process.cwd(), f.path)}  ${(statSync(f.path).size / 1e6).toFixed(2)} MB  ${f.duration.toFixed(1)} s  ${probe}`);
    const danmaku = danmakuPathFor(f.path);
    if (existsSync(danmaku)) {
      xml++;
      out(`  ${relative(process.cwd(), danmaku)}  ${(statSync(danmaku).size / 1e3).toFixed(1)} kB danmaku`);
    }
  }
  out(`  ${closed.length} files, ${(bytes / 1e6).toFixed(1)} MB, ${xml} danmaku XML files, ${events} events`);
  out(`\nrecordings (.flv) and danmaku (.xml, beside each video) are in ${options.outDir}`);
  out(`the web UI was at ${base}/ui/ while the demo ran; to browse these files in it later: liverec run ${shown(options.outDir)} --bind ${port}`);
  process.exit(0);
}
