// Test helpers for the webhook outbox: real node:http receivers on 127.0.0.1, synthetic events, captured logs, temp work dirs.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { Logger } from '../../src/log/logger.js';
import type { RecorderEvent } from '../../src/events/types.js';
import { formatLocal } from '../../src/time.js';

export interface ReceivedRequest {
  n: number;
  at: number;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the receiver does with request number n (1-based): answer a status, never answer, or reset the socket. */
export type Behaviour = (n: number, body: string) => number | 'hang' | 'reset';

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Resolves when `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(behaviour: Behaviour = () => 200, path = '/hook'): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  let waiters: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const n = requests.length + 1;
      requests.push({ n, at: Date.now(), method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      waiters = waiters.filter((w) => (requests.length >= w.count ? (w.resolve(), false) : true));
      const what = behaviour(n, body);
      if (what === 'hang') return;
      if (what === 'reset') {
        req.socket.destroy();
        return;
      }
      res.writeHead(what, { 'content-type': 'text/plain' }).end(`status ${what}`);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    requests,
    waitFor(count, timeoutMs = 15_000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`receiver got ${requests.length} of ${count} requests`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(t), resolve()) });
      });
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on (bound, then released). */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}

export interface CapturedLog {
  log: Logger;
  lines: Record<string, unknown>[];
  find(msg: string): Record<string, unknown>[];
}

export function captureLogger(): CapturedLog {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'debug' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  return { log, lines, find: (msg) => lines.filter((l) => l.msg === msg) };
}

export function tempWorkDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'liverec-webhook-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const room = { RoomId: 23058, ShortId: 3, Name: 'streamer', Title: 'a title', AreaNameParent: '生活', AreaNameChild: '日常', Recording: true, Streaming: true, DanmakuConnected: true };

export function fileClosedEvent(n = 0): RecorderEvent {
  const open = new Date(Date.now() - 60_000);
  return {
    EventType: 'FileClosed',
    EventTimestamp: formatLocal(),
    EventData: {
      ...room,
      SessionId: '7c7f3c3e-0000-4000-8000-000000000001',
      RelativePath: `23058-streamer/录制-23058-${n}.flv`,
      FileOpenTime: formatLocal(open),
      FileCloseTime: formatLocal(),
      FileSize: 1_234_567 + n,
      Duration: 59.5,
    },
  };
}

export function streamStartedEvent(): RecorderEvent {
  return { EventType: 'StreamStarted', EventTimestamp: formatLocal(), EventData: { ...room, Recording: false } };
}

export function sessionStartedEvent(): RecorderEvent {
  return { EventType: 'SessionStarted', EventTimestamp: formatLocal(), EventData: { ...room, SessionId: '7c7f3c3e-0000-4000-8000-000000000002' } };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` is true. */
export async function until(check: () => boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
