// The simulator: ONE HTTP server (+ WebSocket /sub) impersonating the live API, CDN and danmaku for many rooms.
import { COVER_PREFIX, handleCover } from './cover.js';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { handleApi, isApiPath } from './api-routes.js';
import type { SimAddress } from './api-responses.js';
import { type Clip, clips, nearestClip } from './clips.js';
import { handleControl } from './control-routes.js';
import { PassportState } from './passport/passport-state.js';
import { handlePassport, isPassportPath } from './passport/passport-routes.js';
import { handlePassportControl } from './passport/passport-control.js';
import { DanmakuHub } from './danmaku-hub.js';
import { DanmakuTcpServer } from './danmaku-tcp.js';
import { handleMedia, isMediaPath } from './media-routes.js';
import { canonicalPath } from './stream-names.js';
import { Pacer } from './pacer.js';
import { RoomOps } from './room-ops.js';
import type { RequestRecord, SimRoom, SimRoomInit } from './room.js';
import { sendJson } from './http-util.js';
import { BATCH_STATUS_PATH, handleBatchStatus } from './batch-status.js';
import { RiskCounter } from './risk-counter.js';
import { BASE_INFO_PATH, handleBaseInfo } from './base-info.js';
import { refuse, type StrictMode } from './strict.js';
import { countUnenforced } from './api-routes.js';
import { takeBatchFault, type BatchFaults } from './batch-faults.js';
import { handleScale, isScalePath } from './scale-routes.js';

export interface SimulatorOptions {
  /** Pacing tick of the FLV responses (default 40 ms). */
  tickMs?: number;
  /**
   * Clips rooms send (each room gets the one nearest its bitrate): real content such as realClips() or
   * loadClipFile(). Unset = the small committed 360p/480p clips, at their own ~0.4 Mbps unless padded.
   */
  content?: readonly Clip[];
  /**
   * 2024 behaviour (`liverec simulate --lenient`): accept unsigned live API calls and calls without a buvid3 cookie.
   * Off by default: the simulator refuses them with -352 as the service does since 2025.
   */
  lenient?: boolean;
  /**
   * Every live call needs a buvid3 and getInfoByRoom/getDanmuInfo a signature (`liverec simulate --strict-all`): the
   * pre-2026-11 mode, stricter than any source shows, for experiments. Default: the table in strict.ts.
   */
  strictAll?: boolean;
  /**
   * Default of every room's `guestQnCap` (default true): guests get current_qn 250 from play info while accept_qn
   * lists more, as the service answers `mid=0` (`liverec simulate --no-guest-cap` turns it off).
   */
  guestQnCap?: boolean;
  /**
   * Default of every room's `guestDanmakuMask` (default true): a guest's danmaku connection sees senders masked and
   * gets LOG_IN_NOTICE (`liverec simulate --no-guest-mask` turns it off).
   */
  guestDanmakuMask?: boolean;
  /**
   * Rooms offering FLV and fMP4 run on one stream clock unless created with `liveStream: false` (default true; see
   * room.ts `oneClockByDefault`). False: only rooms created with `liveStream` do.
   */
  oneClockByDefault?: boolean;
  /** Risk control: live-API calls per minute per IP above which calls are answered 412 (default 0 = off). */
  riskPerMinute?: number;
}

export interface StartOptions {
  /** 0 or unset = any free port. */
  port?: number;
  /** Listen address (default 127.0.0.1). */
  host?: string;
  /** Port of the raw-TCP danmaku listener (host_list `port`); 0 or unset = any free port. */
  danmakuTcpPort?: number;
}

export interface RunningSimulator {
  /** `http://127.0.0.1:<port>`: LiveApiHost for clients, and the base of the control API. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export class Simulator extends RoomOps {
  readonly pacer: Pacer;
  readonly hub = new DanmakuHub((id) => this.findRoom(id, false));
  unknownRoomHits = 0;
  navHits = 0;
  /** Web logins: QR keys, accounts, sessions (passport/). */
  readonly passport = new PassportState();
  fingerHits = 0;
  readonly refusedHits = { signature: 0, buvid3: 0 };
  readonly refusedLog: RequestRecord[] = [];
  readonly unenforcedHits: Record<string, number> = {};
  readonly lenient: boolean;
  readonly strictMode: StrictMode;
  readonly guestQnCap: boolean;
  readonly guestDanmakuMask: boolean;
  readonly oneClockByDefault: boolean;
  port = 0;
  private server: http.Server | null = null;
  private tcp: DanmakuTcpServer | null = null;
  private readonly content: readonly Clip[];
  /** Per-IP call counting and the risk-control threshold (`GET /_sim/stats` apiCalls, `POST /_sim/risk`). */
  readonly risk: RiskCounter;
  batchCalls = 0;
  batchUids = 0;
  baseInfoCalls = 0;
  /** Armed failures of the batch endpoint (`POST /_sim/batch-faults`). */
  readonly batchFaults: BatchFaults = { remaining: 0, kind: 'http-500' };
  private uidIndex = new Map<number, SimRoom>();
  private uidIndexSize = -1;

  constructor(options: SimulatorOptions = {}) {
    super();
    this.pacer = new Pacer(options.tickMs ?? 40);
    this.content = options.content ?? [];
    this.lenient = options.lenient ?? false;
    this.guestQnCap = options.guestQnCap ?? true;
    this.guestDanmakuMask = options.guestDanmakuMask ?? true;
    this.oneClockByDefault = options.oneClockByDefault ?? true;
    this.strictMode = this.lenient ? 'lenient' : options.strictAll ? 'all' : 'evidence';
    this.risk = new RiskCounter(options.riskPerMinute ?? 0);
  }

  /** The room of an anchor uid (index rebuilt when rooms were added or removed). */
  roomByUid(uid: number): SimRoom | undefined {
    if (this.uidIndexSize !== this.rooms.size) {
      this.uidIndex = new Map([...this.rooms.values()].map((r) => [r.uid, r]));
      this.uidIndexSize = this.rooms.size;
    }
    const room = this.uidIndex.get(uid);
    return room && this.rooms.get(room.roomId) === room ? room : undefined;
  }

  override createRoom(init: SimRoomInit): SimRoom {
    const room = super.createRoom({ ...init, guestQnCap: init.guestQnCap ?? this.guestQnCap, guestDanmakuMask: init.guestDanmakuMask ?? this.guestDanmakuMask, liveStream: init.liveStream ?? (this.oneClockByDefault ? undefined : false) });
    room.content = nearestClip(this.content, room.bitrateKbps);
    return room;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  address(): SimAddress {
    return { port: this.port, streamHosts: [`http://127.0.0.1:${this.port}`, `http://localhost:${this.port}`], danmakuHost: '127.0.0.1', danmakuTcpPort: this.tcp?.port ?? 0 };
  }

  async start(options: StartOptions = {}): Promise<RunningSimulator> {
    if (this.server) throw new Error('Simulator already started');
    clips(); // Parse the clips before the first client waits on them.
    const server = http.createServer((req, res) => void this.onRequest(req, res));
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (new URL(req.url ?? '/', 'http://x').pathname === '/sub') this.hub.handleUpgrade(req, socket, head);
      else socket.destroy();
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    this.tcp = new DanmakuTcpServer(this.hub);
    await this.tcp.listen(options.host ?? '127.0.0.1', options.danmakuTcpPort ?? 0);
    return { url: this.url, port: this.port, close: () => this.close() };
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const room of this.rooms.values()) {
      room.variants?.stop();
      for (const c of room.media) c.end();
    }
    this.stopGenerators();
    this.pacer.stop();
    this.hub.close();
    await this.tcp?.close();
    this.tcp = null;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Totals across rooms (control API `GET /_sim/stats`, benchmark). */
  stats(): Record<string, unknown> {
    let bytesServed = 0;
    let openStreams = 0;
    let openDanmaku = 0;
    for (const r of this.rooms.values()) {
      bytesServed += r.counters.bytesServed;
      openStreams += r.media.size;
      openDanmaku += r.danmaku.size;
    }
    return {
      apiCalls: this.risk.apiCalls, batchCalls: this.batchCalls, batchUids: this.batchUids, baseInfoCalls: this.baseInfoCalls, riskPerMinute: this.risk.perMinute,
      riskHits: this.risk.riskHits, peakApiCallsPerMinute: this.risk.peakPerMinute, apiCallsLastMinute: this.risk.lastMinute(), openDanmaku, rooms: this.rooms.size, openStreams, bytesServed, unknownRoomHits: this.unknownRoomHits, navHits: this.navHits, fingerHits: this.fingerHits, refusedHits: this.refusedHits, unenforcedHits: this.unenforcedHits, lenient: this.lenient, strictMode: this.strictMode, pacerTicks: this.pacer.ticks, pacerBusyMs: Math.round(this.pacer.busyMs) };
  }

  /** The batch endpoints: no source shows them refusing anything (strict.ts); `--strict-all` asks a buvid3. */
  private async batchStatus(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const refusal = refuse(url.pathname, req, url.searchParams, this.strictMode, (u) => countUnenforced(this, u));
    if (refusal) {
      this.refusedHits[refusal.reason]++;
      return sendJson(res, 200, refusal.body);
    }
    const fault = takeBatchFault(this);
    if (fault) return sendJson(res, fault.status, fault.body);
    if (url.pathname === BASE_INFO_PATH) return handleBaseInfo(this, req, res, url);
    return handleBatchStatus(this, req, res, url);
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      url.pathname = canonicalPath(url.pathname);
      const batch = url.pathname === BATCH_STATUS_PATH || url.pathname === BASE_INFO_PATH;
      if ((batch || isApiPath(url.pathname)) && this.risk.count(req)) {
        // The service's IP-level block: HTTP 412 from the gateway, before any signature or room is looked at.
        return sendJson(res, 412, { code: -412, message: '请求被拦截', ttl: 1, data: null }, { Server: 'openresty' });
      }
      if (batch) return await this.batchStatus(req, res, url);
      if (isApiPath(url.pathname)) return await handleApi(this, req, res, url);
      if (isMediaPath(url.pathname)) return await handleMedia(this, req, res, url);
      if (isScalePath(url.pathname, req.method ?? 'GET')) return await handleScale(this, req, res, url);
      if (isPassportPath(url.pathname)) return await handlePassport(this.passport, req, res, url);
      if (url.pathname.startsWith('/_sim/') && (await handlePassportControl(this.passport, req, res, url.pathname))) return;
      if (url.pathname.startsWith('/_sim/')) return await handleControl(this, req, res, url);
      if (url.pathname.startsWith(COVER_PREFIX)) return handleCover(req, res, url, (id) => this.findRoom(id, false) !== undefined);
      sendJson(res, 404, { code: -404, message: '啥都木有', ttl: 1, data: null });
    } catch (err) {
      if (!res.headersSent) sendJson(res, 500, { error: (err as Error).message });
      else res.destroy();
    }
  }
}
