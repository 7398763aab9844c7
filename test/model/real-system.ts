// The real system under the model test: the strict simulator, a webhook sink, and a `liverec run` process with its API.
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Simulator, type RunningSimulator } from '../../src/simulator/index.js';
import { LiverecProcess, type Exit } from './liverec-process.js';
import { SseView, type SseRoom } from './sse-view.js';
import { WebhookSink } from './webhook-sink.js';
import { POOL, TIMING } from './pool.js';

const MEDIA = /\.(flv|mp4|ts)$/;
const API_TIMEOUT_MS = 30_000;

export interface ApiRoom extends SseRoom {
  shortId: number;
}

export class RealSystem {
  readonly sim = new Simulator();
  readonly hooks = new WebhookSink();
  readonly dir = mkdtempSync(join(tmpdir(), 'liverec-model-'));
  proc: LiverecProcess | null = null;
  url = '';
  sse: SseView | null = null;
  private running: RunningSimulator | null = null;
  /** Lines of the processes that exited (their stderr tails), for a failure's story. */
  readonly story: string[] = [];
  /** Secrets the event streams of earlier processes carried (each stream checks its frames as they come). */
  readonly sseLeaks: string[] = [];

  async start(initialLive: readonly boolean[]): Promise<void> {
    this.running = await this.sim.start();
    await this.hooks.start();
    POOL.forEach((p, i) => this.sim.createRoom({
      roomId: p.roomId, shortId: p.shortId, uid: p.uid, name: `model-${i}`, title: `model ${i}`, live: initialLive[i] ?? false,
      formats: ['flv', 'fmp4'], liveStream: { hlsRetentionSec: 60 },
    }));
    const g = (v: unknown): { HasValue: true; Value: unknown } => ({ HasValue: true, Value: v });
    writeFileSync(join(this.dir, 'config.json'), JSON.stringify({
      version: 3,
      global: {
        LiveApiHost: g(this.running.url),
        WebHookUrlsV2: g(this.hooks.url),
        TimingCheckInterval: g(TIMING.checkIntervalS),
        TimingStreamRetry: g(1000),
        TimingWatchdogTimeout: g(3000),
        TimingApiBlockedPause: g(TIMING.blockedPauseMs),
        ApiBudgetPerMinute: g(TIMING.budgetPerMinute),
        AccountCheckInterval: g(TIMING.accountCheckS),
      },
      rooms: [],
    }));
    await this.launch();
  }

  async launch(): Promise<void> {
    const { proc, url } = await LiverecProcess.start(this.dir);
    this.proc = proc;
    this.url = url;
    this.sse = await SseView.connect(url, () => [...this.sim.passport.sessions.values()].flatMap((x) => [x.sessdata, x.biliJct, x.refreshToken]));
    this.sse.seed(await this.restRooms());
  }

  /** Stops the process with `signal`; the event stream goes with it. */
  async halt(signal: 'SIGTERM' | 'SIGKILL'): Promise<Exit> {
    this.sseLeaks.push(...(this.sse?.leaks ?? []));
    this.sse?.close();
    this.sse = null;
    const proc = this.proc!;
    const exit = await proc.stop(signal);
    this.story.push(`--- liverec ${signal} → ${JSON.stringify(exit)}; stderr tail:\n${proc.stderr.slice(-3000)}`);
    this.proc = null;
    return exit;
  }

  async api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const res = await fetch(this.url + path, {
      method,
      // An API that never answers is a failure to report, not a hang (the bound is generous: a busy machine).
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, json };
  }

  async restRooms(): Promise<ApiRoom[]> {
    const r = await this.api('GET', '/api/room');
    if (r.status !== 200) throw new Error(`GET /api/room answered ${r.status}: ${JSON.stringify(r.json)}`);
    return r.json as ApiRoom[];
  }

  async gqlRooms(): Promise<{ roomId: number; autoRecord: boolean; recording: boolean; streaming: boolean }[]> {
    const r = await this.api('POST', '/graphql', { query: '{ rooms { objectId recording streaming roomConfig { roomId autoRecord } } }' });
    if (r.status !== 200 || r.json?.errors) throw new Error(`GraphQL rooms: ${r.status} ${JSON.stringify(r.json)}`);
    return (r.json.data.rooms as { recording: boolean; streaming: boolean; roomConfig: { roomId: number; autoRecord: boolean } }[])
      .map((x) => ({ roomId: x.roomConfig.roomId, autoRecord: x.roomConfig.autoRecord, recording: x.recording, streaming: x.streaming }));
  }

  /**
   * What a "not settled" failure needs to tell where a room waits: the simulator's last API calls of each room named
   * (time and path) and liverec's API budget gauges (a start waiting for its turn, or never asking).
   */
  async diagnose(roomIds: number[]): Promise<string[]> {
    const out: string[] = [];
    for (const id of roomIds) {
      const log = this.sim.rooms.get(id)?.apiLog ?? [];
      out.push(`simulator's last API calls of ${id}: ${log.slice(-8).map((x) => `${new Date(x.at).toISOString().slice(11, 23)} ${x.path.split('/').pop()}`).join(', ') || 'none'}`);
    }
    try {
      const res = await fetch(`${this.url}/metrics`, { signal: AbortSignal.timeout(API_TIMEOUT_MS) });
      const lines = (await res.text()).split('\n').filter((l) => l.startsWith('liverec_api_'));
      out.push(`liverec at ${new Date().toISOString().slice(11, 23)}: ${lines.join('; ')}`);
    } catch (err) {
      out.push(`liverec /metrics: ${(err as Error).message}`);
    }
    return out;
  }

  async control(path: string, body: unknown): Promise<unknown> {
    const res = await fetch(`${this.running!.url}${path}`, { signal: AbortSignal.timeout(API_TIMEOUT_MS), method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`simulator ${path} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : null;
  }

  /** Media files in the work directory, relative (what a FileOpening's RelativePath names). */
  mediaFiles(): string[] {
    return readdirSync(this.dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => MEDIA.test(f) && !f.startsWith('.liverec') && !f.startsWith('logs'))
      .map((f) => f.split('\\').join('/'));
  }

  async close(): Promise<void> {
    this.sse?.close();
    if (this.proc) await this.proc.stop('SIGKILL').catch(() => undefined);
    await this.hooks.close();
    await this.running?.close();
    // LIVEREC_MODEL_KEEP=dir: the work directory (its logs/) is copied there for a failure's diagnosis.
    if (process.env.LIVEREC_MODEL_KEEP) cpSync(this.dir, join(process.env.LIVEREC_MODEL_KEEP, `run-${Date.now()}`), { recursive: true });
    rmSync(this.dir, { recursive: true, force: true });
  }
}
