// Phase 2: the same rooms recorded by N `ffmpeg -c copy` processes, measured the same way (summed CPU and RSS).
import { type ChildProcess, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ApiLimiter } from '../src/bilibili/api-limiter.js';
import { BilibiliApiClient } from '../src/bilibili/api-client.js';
import type { StreamFormat } from '../src/bilibili/recording-protocol.js';
import { resolveStreamUrl } from '../src/bilibili/stream-url.js';
import { OutputTail } from './child-output.js';
import { removeDir, stopChild, tempDir, track } from './cleanup.js';
import { peerTools, probePeerFiles } from './peer-ffmpeg.js';
import type { FfmpegFigures } from './figures.js';
import { GiveUp, waitFor } from './http-json.js';
import { cpuSecondsPerGb, inputFigures, machineFigures, procFigures } from './metrics.js';
import { paceOf, simSeries } from './pace.js';
import { pssKiB } from './proc.js';
import { phase } from './progress.js';
import { sample } from './sampler.js';
import { servedBytes, type SimulatorProcess } from './simulator-process.js';
import { flvLeadBytes, phaseTotals } from './output-bytes.js';

/** The stream URL a client gets from the live API (the real client code), on 127.0.0.1. */
async function streamUrls(simUrl: string, roomIds: number[], format: StreamFormat): Promise<string[]> {
  // The benchmark's own limiter, without spacing: ffmpeg's start should not wait on brec's politeness delay.
  const api = new BilibiliApiClient({ liveApiHost: simUrl }, ApiLimiter.create({ perMinute: 0 }));
  const urls: string[] = [];
  for (const id of roomIds) {
    const { url } = await resolveStreamUrl(api, id, undefined, [format]);
    // This ffmpeg build resolves "localhost" to ::1 only, where the simulator does not listen.
    urls.push(url.replace('://localhost:', '://127.0.0.1:'));
  }
  return urls;
}

/**
 * What `ffmpeg -c copy` writes each format into: FLV as FLV; HLS fMP4 as fragmented MP4 (liverec keeps the
 * fragments it gets in an .mp4); HLS TS as TS (liverec keeps the segments in a .ts).
 */
const MUXER: Record<StreamFormat, { ext: string; args: string[] }> = {
  flv: { ext: 'flv', args: ['-f', 'flv'] },
  fmp4: { ext: 'mp4', args: ['-f', 'mp4', '-movflags', 'frag_keyframe+empty_moov+default_base_moof'] },
  ts: { ext: 'ts', args: ['-f', 'mpegts'] },
};

/** `beforeWindow` is awaited after the warm-up, right before the window (`--concurrent` aligns both windows). */
export async function runFfmpegPhase(sim: SimulatorProcess, seconds: number, warmupSeconds: number, format: StreamFormat = 'flv', beforeWindow?: () => Promise<void>): Promise<FfmpegFigures> {
  const ids = sim.roomIds;
  const outDir = tempDir('liverec-bench-ffmpeg-');
  const procs: { child: ChildProcess; err: OutputTail; file: string; id: number }[] = [];
  try {
    phase(`ffmpeg: resolving ${ids.length} stream URLs and starting ${ids.length} ffmpeg -c copy processes`);
    const urls = await streamUrls(sim.url, ids, format);
    const muxer = MUXER[format];
    const servedBefore = await servedBytes(sim);
    const peer = peerTools(format);
    phase(`ffmpeg: ${peer.version} (${peer.source === 'PATH' ? peer.ffmpeg : 'the devDependency'})`);
    const bin = peer.ffmpeg;
    ids.forEach((id, i) => {
      const file = join(outDir, `${id}.${muxer.ext}`);
      const child = track(spawn(bin, ['-hide_banner', '-nostdin', '-v', 'error', '-i', urls[i]!, '-c', 'copy', ...muxer.args, file], { stdio: ['ignore', 'ignore', 'pipe'] }));
      procs.push({ child, err: new OutputTail(child.stderr), file, id });
    });
    const died = (): string | null => {
      const p = procs.find((x) => x.child.exitCode !== null || x.child.signalCode !== null);
      return p ? `ffmpeg for room ${p.id} exited (code ${p.child.exitCode}): ${p.err.tail}` : null;
    };
    await waitFor(`all ${ids.length} ffmpeg outputs to grow`, 30_000 + ids.length * 200, async () => {
      const d = died();
      if (d) throw new GiveUp(d);
      return procs.every((p) => {
        try {
          return statSync(p.file).size > 0;
        } catch {
          return false;
        }
      }) ? true : undefined;
    });
    phase(`ffmpeg: all ${ids.length} processes writing; warm-up ${warmupSeconds} s`);
    await new Promise((r) => setTimeout(r, warmupSeconds * 1000));
    await beforeWindow?.();
    phase(`ffmpeg: window, ${seconds} s`);
    const pids = procs.map((p) => p.child.pid!);
    const written = (): number => procs.reduce((sum, p) => sum + statSync(p.file).size, 0);
    const before = { t: performance.now(), bytes: written() };
    const s = await sample({
      label: 'ffmpeg', pids: () => pids, sim,
      check: () => {
        const d = died();
        if (d) throw new Error(`during the measurement: ${d}`);
      },
    }, seconds);
    const outMbps = ((written() - before.bytes) * 8) / ((performance.now() - before.t) / 1000) / 1e6;
    let pss: number | null = 0;
    for (const pid of pids) {
      const v = pssKiB(pid);
      pss = v === null || pss === null ? null : pss + v;
    }
    const cpu = procFigures(s.procs);
    const input = inputFigures(s.simRooms, ids);
    // SIGTERM: ffmpeg writes what it read and its trailer; then every stream is closed and counted.
    await Promise.all(procs.map((p) => stopChild(p.child, 5000)));
    await waitFor('the simulator to see every ffmpeg stream closed', 20_000, async () => {
      const c = await sim.counters();
      return [...c.values()].every((r) => r.openStreams === 0) ? true : undefined;
    });
    const sizes = procs.map((p) => statSync(p.file).size);
    const out = { bytes: sizes.reduce((a, b) => a + b, 0), mediaBytes: procs.reduce((sum, p, i) => sum + sizes[i]! - flvLeadBytes(p.file, sizes[i]!), 0) };
    const totals = phaseTotals((await servedBytes(sim)) - servedBefore, out);
    const pssMiB = pss === null ? null : pss / 1024;
    phase(`ffmpeg: probing its ${procs.length} files`);
    const probe = await probePeerFiles(peer.ffprobe, procs.map((p) => p.file));
    return {
      peer: { source: peer.source, version: peer.version, probe },
      processes: ids.length, input, outMbps, totals, cpu, cpuSecondsPerGb: cpuSecondsPerGb(cpu, input),
      rssPeakMiB: cpu.rssPeakMiB, rssPerRoomMiB: cpu.rssPeakMiB / ids.length,
      pssMiB, pssPerRoomMiB: pssMiB === null ? null : pssMiB / ids.length,
      simPace: paceOf(simSeries(s.simRooms, ids), format !== 'flv'),
      simulatorCpuPct: procFigures(s.sim).cpuPct,
      machine: machineFigures([s.procs, s.sim]),
    };
  } finally {
    phase('ffmpeg: stopping');
    await Promise.all(procs.map((p) => stopChild(p.child, 5000)));
    removeDir(outDir);
  }
}
