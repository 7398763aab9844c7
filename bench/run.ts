// Multi-room benchmark (`npm run bench`): liverec recording N simulated rooms vs N `ffmpeg -c copy`, CPU, RSS, pace, API latency.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { freshStem } from './result-name.js';
import { join, relative } from 'node:path';
import { packageRoot } from '../src/paths.js';
import { installCleanup, stopAll } from './cleanup.js';
import { runFfmpegPhase } from './ffmpeg-phase.js';
import { checkTargets, comparisonFlags, cpuRatio, type RunFigures } from './figures.js';
import { destroyAgent } from './http-json.js';
import { runLiverecPhase } from './liverec-phase.js';
import { describeMachine, machineLine } from './machine.js';
import { type BenchOptions, type BenchProtocol, parseOptions, USAGE } from './options.js';
import { phase } from './progress.js';
import { cliPath, roomSubset, startSimulator } from './simulator-process.js';
import { sweepSvg } from './svg-chart.js';
import { DEFINITIONS, renderNotes, renderTable } from './table.js';

const streamFormat = (p: BenchProtocol): 'flv' | 'fmp4' | 'ts' => (p === 'hls-fmp4' ? 'fmp4' : p === 'hls-ts' ? 'ts' : 'flv');

/** A function that resolves for all `parties` callers once the last of them has called it. */
function meetingPoint(parties: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++arrived === parties) open();
    return all;
  };
}

async function runOne(rooms: number, o: BenchOptions): Promise<RunFigures> {
  phase(`${rooms} rooms at ${o.bitrateKbps} kbps: starting the simulator${o.clip ? ` with ${o.clip}` : ' (the first start of a bitrate encodes its 1080p clip)'}`);
  const sim = await startSimulator(o.concurrent ? 2 * rooms : rooms, o.bitrateKbps, { clip: o.clip, padWithFiller: o.padWithFiller, formats: o.protocol === 'flv' ? undefined : [streamFormat(o.protocol)] });
  try {
    phase(`content: ${sim.content ? `${sim.content.name}, ${sim.content.kbps} kbps` : 'committed 360p clip'}${o.padWithFiller ? `, padded with filler to ${o.bitrateKbps} kbps` : ', no filler'}`);
    // At once (the default): liverec records the first half of the rooms and ffmpeg the second, over one window.
    const [lrSim, ffSim] = o.concurrent ? [roomSubset(sim, sim.roomIds.slice(0, rooms)), roomSubset(sim, sim.roomIds.slice(rooms))] : [sim, sim];
    const barrier = o.concurrent ? meetingPoint(2) : undefined;
    const ffmpegPhase = () => (o.skipFfmpeg ? null : runFfmpegPhase(ffSim, o.seconds, o.warmupSeconds, streamFormat(o.protocol), barrier));
    const liverecPhase = () => runLiverecPhase(lrSim, { seconds: o.seconds, warmupSeconds: o.warmupSeconds, roomsPerWorker: o.roomsPerWorker, apiRps: o.apiRps, apiListShare: o.apiListShare, hls: o.protocol !== 'flv', beforeWindow: barrier });
    const early = o.ffmpegFirst ? await ffmpegPhase() : null;
    const [liverec, late] = o.concurrent ? await Promise.all([liverecPhase(), ffmpegPhase()]) : [await liverecPhase(), null];
    const ffmpeg = o.concurrent ? late : o.ffmpegFirst ? early : await ffmpegPhase();
    const ratios = ffmpeg ? {
      cpuPerGb: cpuRatio(liverec, ffmpeg), rssPerRoom: liverec.rssPerRoomMiB / ffmpeg.rssPerRoomMiB,
      pssPerRoom: liverec.pssMiB === null || ffmpeg.pssPerRoomMiB === null ? null : liverec.pssMiB / rooms / ffmpeg.pssPerRoomMiB,
    } : null;
    const flags = comparisonFlags(liverec, ffmpeg, o.padWithFiller, o.protocol);
    for (const f of flags) phase(`FLAGGED: ${f}`);
    return {
      rooms, bitrateKbps: o.bitrateKbps, content: sim.content, padWithFiller: o.padWithFiller, flags,
      seconds: o.seconds, warmupSeconds: o.warmupSeconds, liverec, ffmpeg, ratios, targets: checkTargets(liverec, ratios),
    };
  } finally {
    await sim.stop();
  }
}

async function main(): Promise<number> {
  let o: BenchOptions | 'help';
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (o === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!existsSync('/proc/self/stat')) throw new Error('this benchmark reads /proc and runs on Linux only');
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: build first (npx tsc -p .)`);
  installCleanup();
  const machine = describeMachine();
  phase(`machine: ${machineLine(machine)}`);
  const runs: RunFigures[] = [];
  const date = new Date().toISOString().slice(0, 10);
  const outDir = o.outDir ?? join(packageRoot, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  const placement = `${o.roomsPerWorker === null ? '' : `-rpw${o.roomsPerWorker}`}${o.protocol === 'flv' ? '' : `-${o.protocol}`}`;
  const base = freshStem(join(outDir, o.sweep ? `${date}-sweep-${o.rooms.join('-')}r${placement}` : `${date}-${o.rooms[0]}r${placement}`), ['.json', '.svg']);
  const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim();
  const result = {
    benchmark: 'liverec multi-room recording vs ffmpeg -c copy',
    date: new Date().toISOString(),
    command,
    options: { ...o, outDir: undefined },
    machine,
    definitions: DEFINITIONS,
    runs,
  };
  for (const rooms of o.rooms) {
    runs.push(await runOne(rooms, o));
    // Saved after every room count, so a later failure keeps the finished ones.
    writeFileSync(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
  }
  writeFileSync(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
  const files = [`${base}.json`];
  if (o.sweep) {
    writeFileSync(`${base}.svg`, sweepSvg(runs, `${o.bitrateKbps} kbps per room, ${o.seconds}-s windows; ${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}`));
    files.push(`${base}.svg`);
  }
  const shown = files.map((f) => (relative(process.cwd(), f).startsWith('..') ? f : relative(process.cwd(), f)));
  phase(`wrote ${shown.join(', ')}`);
  if (o.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    process.stdout.write([
      '',
      `liverec multi-room benchmark: ${runs[0]?.content ? `${runs[0].content.name} (${runs[0].content.kbps} kbps)` : 'committed 360p clip'}${o.padWithFiller ? `, filler to ${o.bitrateKbps} kbps` : ''} per room, ${o.seconds}-s windows after ${o.warmupSeconds} s warm-up, API load ${o.apiRps} req/s${o.apiListShare ? ` (${Math.round(o.apiListShare * 100)} % GET /api/room)` : ''}${o.concurrent ? ', liverec and ffmpeg at once, each on rooms of its own' : o.skipFfmpeg ? '' : o.ffmpegFirst ? ', ffmpeg, then liverec on the same rooms (--ffmpeg-first)' : ', liverec, then ffmpeg on the same rooms (--sequential)'}`,
      `machine: ${machineLine(machine)}`,
      `command: ${command}`,
      '',
      renderTable(runs),
      ...runs.flatMap((r) => r.flags.map((f) => `FLAGGED (${r.rooms} rooms): ${f}`)),
      '',
      '✓ / ✗ = target met / missed. Columns:',
      renderNotes(),
      '',
      `results: ${shown.join(', ')}`,
      '',
    ].join('\n'));
  }
  return 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  process.stderr.write(`bench: failed: ${process.env.BENCH_DEBUG ? (err as Error).stack : (err as Error).message}\n`);
} finally {
  await stopAll(5000);
  destroyAgent();
}
process.exit(code);
