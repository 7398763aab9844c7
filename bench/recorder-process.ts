// liverec itself as its own process (`liverec portable` with the API on a free port): start, read rooms, stop.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { OutputTail } from './child-output.js';
import { stopChild, track } from './cleanup.js';
import { freePort } from './free-port.js';
import { getJson, GiveUp, waitFor } from './http-json.js';
import { cliPath } from './simulator-process.js';

/** The fields of GET /api/room that the benchmark reads (brec's RoomDto). */
export interface ApiRoom {
  roomId: number;
  recording: boolean;
  streaming: boolean;
  recordingStats: {
    sessionDuration: number;
    sessionMaxTimestamp: number;
    durationRatio: number | string;
    totalInputBytes: number;
    totalOutputBytes: number;
  };
  ioStats: { endTime: string | null; duration: number; networkBytesDownloaded: number; diskBytesWritten: number };
}

export interface RecorderProcess {
  apiUrl: string;
  pid: number;
  rooms(): Promise<ApiRoom[]>;
  /** Resolves once every room has recorded media (sessionMaxTimestamp > 0). */
  waitAllRecording(roomIds: number[], timeoutMs: number, onProgress: (recording: number) => void): Promise<void>;
  /** Errors the process printed (its log level is warn). */
  errors(): string;
  exited(): boolean;
  stop(): Promise<void>;
}

/** `roomsPerWorker` null = no flag: liverec's own default placement, as `liverec run` uses it. */
export async function startRecorder(simUrl: string, roomIds: number[], outDir: string, roomsPerWorker: number | null): Promise<RecorderProcess> {
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const args = [cliPath, 'portable', outDir, ...roomIds.map(String), '--live-api-host', simUrl, '--bind', apiUrl, '-l', 'warn'];
  if (roomsPerWorker !== null) args.push('--rooms-per-worker', String(roomsPerWorker));
  const child = track(spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  const out = new OutputTail(child.stdout, 8000);
  const err = new OutputTail(child.stderr, 8000);
  let gone = false;
  void once(child, 'exit').then(() => (gone = true));
  const rooms = (): Promise<ApiRoom[]> => {
    if (gone) return Promise.reject(new GiveUp(`liverec exited (code ${child.exitCode}, signal ${child.signalCode}): ${err.tail || out.tail}`));
    return getJson<ApiRoom[]>(`${apiUrl}/api/room`);
  };
  await waitFor('the liverec API', 30_000, async () => ((await rooms()).length > 0 ? true : undefined), 200);
  return {
    apiUrl,
    pid: child.pid!,
    rooms,
    async waitAllRecording(ids, timeoutMs, onProgress) {
      const want = new Set(ids);
      await waitFor(`all ${ids.length} rooms to record`, timeoutMs, async () => {
        const list = await rooms();
        const n = list.filter((r) => want.has(r.roomId) && r.recordingStats.sessionMaxTimestamp > 0).length;
        onProgress(n);
        return n === want.size ? true : undefined;
      }, 1000);
    },
    errors: () => [err.tail, out.tail].filter(Boolean).join('\n'),
    exited: () => gone,
    stop: () => stopChild(child, 15_000),
  };
}
