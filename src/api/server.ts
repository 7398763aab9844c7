// Starts the HTTP API: resolves auth/open-access from options and env, binds like brec, closes gracefully.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Server } from 'node:net';
import { createServer as createHttpsServer } from 'node:https';
import { getRequestListener } from '@hono/node-server';
import { LiverecError } from '../errors.js';
import { logger } from '../log/logger.js';
import type { Recorder } from '../rooms/recorder.js';
import type { WebhookDelivery } from '../webhook/deliveries-schema.js';
import { createApiApp } from './app.js';
import { fastRoomAnswers, fastRoomGets } from './fast-room-get.js';
import { createFrontDoor } from './front-door/front-door.js';
import { ConnectionGate, DEFAULT_CONNECTION_LIMITS, gatedServer, type ConnectionLimits } from './connection-limits.js';
import { isLocalClient } from './guard.js';
import { parseBind, type BindSpec } from './bind.js';
import type { ApiApp, ApiDeps } from './context.js';
import { normalizeOrigin } from './cors.js';
import { closePreviewPool } from '../template/preview-pool.js';
import { closeDanmakuPool } from '../clips/danmaku-times.js';
import type { OpenApiDocument } from './openapi.js';

export interface ApiServerOptions {
  recorder: Recorder;
  /** Cluster mode's cross-node routes (src/cluster). */
  cluster?: ApiDeps['cluster'];
  /** brec's --bind: `2356`, `http://host:port`, `http://*:2356`; default http://localhost:2356. */
  bind?: string | number;
  basicUser?: string;
  basicPass?: string;
  openAccess?: boolean;
  /** Origins allowed to call the API cross-origin (`--http-cors-origin`, or LIVEREC_HTTP_CORS_ORIGIN, comma-separated); `*` = any. */
  corsOrigins?: string[];
  deliveries?: () => WebhookDelivery[];
  replayDelivery?: ApiDeps['replayDelivery'];
  jobs?: ApiDeps['jobs'];
  clips?: ApiDeps['clips'];
  retention?: ApiDeps['retention'];
  notifyTest?: ApiDeps['notifyTest'];
  accounts?: ApiDeps['accounts'];
  /** brec's --enable-file-browser (default true). */
  fileBrowser?: boolean;
  /** For an https:// bind (liverec does not self-sign): a PEM key and certificate, or a PFX; passphrase for either. */
  tls?: { key?: string | Buffer; cert?: string | Buffer; pfx?: Buffer; passphrase?: string };
  /** Connections one client address may hold at once (`--http-max-connections-per-client`, LIVEREC_HTTP_MAX_CONNECTIONS_PER_CLIENT; default 256). */
  maxConnectionsPerClient?: number;
  /** Connections all clients may hold at once (`--http-max-connections`, LIVEREC_HTTP_MAX_CONNECTIONS; default 2048). */
  maxConnections?: number;
  /** How long a request head, and a whole request, may take to arrive from its first byte (default 20 s and 60 s; tests shorten them). */
  timeouts?: { headersMs?: number; requestMs?: number };
  /** Where the BREC_HTTP_* fallbacks are read; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface ApiServer {
  /** A URL this process can reach the API at (the loopback address for localhost and all-interface binds). */
  url: string;
  bind: BindSpec;
  servers: Server[];
  app: ApiApp;
  document: OpenApiDocument;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen({ port, host, ipv6Only: false }, () => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

/** A listening server and how to end every connection it has. */
interface Listening {
  server: Server;
  closeAllConnections(): void;
}

const closeServer = (s: Listening): Promise<void> =>
  new Promise((resolve) => {
    s.server.close(() => resolve());
    s.closeAllConnections();
  });

const HEADERS_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 60_000;
const CHECK_INTERVAL_MS = 1_000;

/** The limits from the options, else LIVEREC_HTTP_MAX_CONNECTIONS(_PER_CLIENT), else the defaults; a bad value is refused. */
function connectionLimits(options: ApiServerOptions, env: NodeJS.ProcessEnv): ConnectionLimits {
  const read = (given: number | undefined, name: string, fallback: number): number => {
    const text = given ?? env[name];
    if (text === undefined || text === '') return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw new LiverecError('API_BAD_CONNECTION_LIMIT', `${name}: ${text} is not a whole number from 1 to 1000000`);
    return n;
  };
  return {
    perClient: read(options.maxConnectionsPerClient, 'LIVEREC_HTTP_MAX_CONNECTIONS_PER_CLIENT', DEFAULT_CONNECTION_LIMITS.perClient),
    total: read(options.maxConnections, 'LIVEREC_HTTP_MAX_CONNECTIONS', DEFAULT_CONNECTION_LIMITS.total),
  };
}

export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const env = options.env ?? process.env;
  const user = options.basicUser ?? env.BREC_HTTP_BASIC_USER ?? '';
  const pass = options.basicPass ?? env.BREC_HTTP_BASIC_PASS ?? '';
  const auth = user !== '' || pass !== '' ? { user, pass } : null;
  const openAccess = options.openAccess === true || (env.BREC_HTTP_OPEN_ACCESS ?? '') !== '';
  const corsOrigins = (options.corsOrigins ?? (env.LIVEREC_HTTP_CORS_ORIGIN ?? '').split(',')).map((o) => o.trim()).filter((o) => o !== '').map((o) => {
    const origin = normalizeOrigin(o);
    if (!origin) throw new LiverecError('API_BAD_CORS_ORIGIN', `--http-cors-origin: ${o} is not an origin like http://host:port`);
    return origin;
  });
  const limits = connectionLimits(options, env);
  const bind = parseBind(options.bind);
  if (bind.scheme === 'https' && !options.tls) {
    throw new LiverecError('API_TLS_REQUIRED',
      'an https:// bind needs a certificate: --cert-pem-path and --cert-key-path, or --cert-pfx-path (liverec does not generate self-signed ones)');
  }

  const { app, document, events, metrics, history, snapshots, dispose } = createApiApp({ recorder: options.recorder, deliveries: options.deliveries, replayDelivery: options.replayDelivery, jobs: options.jobs, clips: options.clips, retention: options.retention, notifyTest: options.notifyTest, accounts: options.accounts, fileBrowser: options.fileBrowser, cluster: options.cluster, auth, openAccess, corsOrigins });
  // From the start, not the first request: resumable events and metric counters must not miss the first rooms' events.
  events.start();
  metrics.start();
  history.start();
  // Lightweight Request/Response globals (the adapter's default): every answer then skips building an undici
  // Response and ReadableStream, measured at ~40% of the API's CPU under 500 GET/s. The usual risk (stack.md §3)
  // is other HTTP clients in the process: stream downloads and live-API calls use node:net/node:http, and the
  // webhook sender's fetch/ky works with the swapped globals (the adapter's classes extend undici's); the
  // webhook end-to-end test runs with the API started in the same process to keep that true.
  const appListener = getRequestListener(app.fetch, { overrideGlobalObjects: true });
  // The polled room GETs skip the app when nothing needs deciding (fast-room-get.ts); never with Basic auth (its
  // check and failed-login throttle stay in one place) nor in cluster mode, whose room routes read the database.
  const fast = options.cluster || auth ? null : fastRoomGets({ recorder: options.recorder, snapshots, guard: !openAccess });
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (!fast?.(req, res)) void appListener(req, res);
  };
  // Plain HTTP with the fast path: a TCP front door answers those GETs without node:http (front-door/front-door.ts).
  const answer = fast ? fastRoomAnswers({ recorder: options.recorder, snapshots, guard: !openAccess }) : null;
  // One count for every listening socket (localhost is a v4 and a v6 server). Every server below is reached through
  // a TCP server that checks the limits first: the front door, or a plain gate (connection-limits.ts).
  const gate = new ConnectionGate(limits);
  // From the first byte of a head: a client that trickles bytes cannot stretch them; checked every second.
  const timing = {
    headersTimeout: options.timeouts?.headersMs ?? HEADERS_TIMEOUT_MS,
    requestTimeout: options.timeouts?.requestMs ?? REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: CHECK_INTERVAL_MS,
  };
  const make = (): Listening => {
    if (bind.scheme === 'https' && options.tls) {
      const s = createHttpsServer({ ...options.tls, minVersion: 'TLSv1.2', handshakeTimeout: timing.headersTimeout, ...timing }, listener);
      return gatedServer(s, gate, false);
    }
    const s = createHttpServer(timing, listener);
    return answer ? createFrontDoor(s, answer, { gate, admits: openAccess ? undefined : isLocalClient }) : gatedServer(s, gate, true);
  };

  const listening: Listening[] = [];
  let port = bind.port;
  let host: string;
  try {
    if (bind.listen.kind === 'loopback') {
      const v4 = make();
      listening.push(v4);
      port = await listen(v4.server, port, '127.0.0.1');
      host = '127.0.0.1';
      const v6 = make();
      // IPv6 may be unavailable (containers); loopback v4 alone is then the whole of "localhost".
      await listen(v6.server, port, '::1').then(() => listening.push(v6), () => v6.closeAllConnections());
    } else if (bind.listen.kind === 'address') {
      const s = make();
      listening.push(s);
      port = await listen(s.server, port, bind.listen.address);
      host = bind.listen.address.includes(':') ? `[${bind.listen.address}]` : bind.listen.address;
      if (host === '0.0.0.0' || host === '[::]') host = '127.0.0.1';
    } else {
      const s = make();
      listening.push(s);
      port = await listen(s.server, port, '::').catch(() => listen(s.server, port, '0.0.0.0'));
      host = '127.0.0.1';
    }
  } catch (err) {
    await Promise.all(listening.map(closeServer));
    const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? ' (another program, or another liverec, already uses this port; choose another one)' : '';
    throw new LiverecError('API_LISTEN_FAILED', `cannot listen on ${bind.scheme}://${bind.host}:${bind.port}: ${(err as Error).message}${inUse}`, { cause: err });
  }

  const url = `${bind.scheme}://${host}:${port}`;
  logger().info({ url, bind: `${bind.scheme}://${bind.host}:${port}`, auth: auth !== null, openAccess, corsOrigins, maxConnections: limits.total, maxConnectionsPerClient: limits.perClient }, 'HTTP API listening');
  return {
    url, bind: { ...bind, port }, servers: listening.map((l) => l.server), app, document,
    close: async () => {
      dispose();
      await Promise.all(listening.map(closeServer));
      await closePreviewPool();
      await closeDanmakuPool();
    },
  };
}
