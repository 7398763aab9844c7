// Danmaku client for one room: auth, heartbeat, typed events, reconnect after TimingDanmakuRetry.
import { EventEmitter } from 'node:events';
import type { DanmuInfo } from '../api-models.js';
import { type ClientOptions, clientOptions } from '../client-options.js';
import { BiliErrorCode, BilibiliError } from '../errors.js';
import { cookieIdentity, danmakuHeaders, withBuvid3 } from '../headers.js';
import { cookieHasLogin } from '../identity.js';
import { authBody } from './auth-body.js';
import type { DanmakuEvent } from './commands.js';
import { encodePacket, Op } from './packet.js';
import { DanmakuReceiver, type DanmakuStats, newDanmakuStats } from './receiver.js';
import { WsLite } from './ws-lite.js';

export type DanmakuState = 'idle' | 'connecting' | 'connected' | 'waiting' | 'stopped';
export type { DanmakuStats } from './receiver.js';

export interface DanmakuClientConfig {
  /** The real room id (auth requires it). */
  roomId: number;
  /** Source of tokens and hosts: a BilibiliApiClient, or anything with the same method. */
  api: { getDanmuInfo(roomId: number, signal?: AbortSignal): Promise<DanmuInfo>; buvid?(signal?: AbortSignal): Promise<string> };
  options?: Partial<ClientOptions>;
  /** WebSocket handshake budget (default 10 s, as brec). */
  connectTimeoutMs?: number;
}


/** Token/host info is reused this long (brec caches getDanmuInfo for 2 minutes). */
const INFO_TTL_MS = 120_000;
/** A connection that lasted longer than this reconnects at once (brec). */
const LONG_CONNECTION_MS = 60_000;
const FALLBACK_HOST = { host: 'broadcastlv.chat.bilibili.com', port: 2243, wsPort: 2244, wssPort: 443 };

export interface DanmakuClient {
  on(event: 'event', listener: (ev: DanmakuEvent) => void): this;
  on(event: 'state', listener: (state: DanmakuState) => void): this;
  /** Recoverable problems (API failure, auth refused, socket error); the client keeps reconnecting. */
  on(event: 'warning', listener: (err: BilibiliError) => void): this;
  /** The connection's token came from a call with a login cookie, and the service still told it that it is a guest's. */
  on(event: 'loginIgnored', listener: (why: string) => void): this;
}

export class DanmakuClient extends EventEmitter {
  options: ClientOptions;
  readonly stats: DanmakuStats = newDanmakuStats();
  private readonly receiver = new DanmakuReceiver(this.stats, {
    event: (ev) => {
      if (ev.type === 'LOG_IN_NOTICE' && cookieHasLogin(this.connectionCookie)) {
        this.emit('loginIgnored', 'the danmaku server sent LOG_IN_NOTICE to a connection whose token came with a login cookie');
      }
      this.emit('event', ev);
    },
    authReply: (code) => this.onAuthReply(code),
  });
  private api: DanmakuClientConfig['api'];
  /** The cookie of the getDanmuInfo call whose token the open connection presented. */
  private connectionCookie = '';
  private state: DanmakuState = 'idle';
  private ws: WsLite | null = null;
  private info: { value: DanmuInfo; at: number; cookie: string } | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private openedAt = 0;
  private lastReceived = 0;
  private readonly abort = new AbortController();

  constructor(private readonly config: DanmakuClientConfig) {
    super();
    this.options = clientOptions(config.options);
    this.api = config.api;
  }

  /**
   * The room's login changed (another account, a refreshed cookie): later connections ask tokens with it. The open
   * connection stays: what it was given at its auth goes on.
   */
  useLogin(api: DanmakuClientConfig['api'], options: Partial<ClientOptions>): void {
    this.api = api;
    this.options = clientOptions(options);
    this.info = null;
  }

  get currentState(): DanmakuState {
    return this.state;
  }

  get connected(): boolean {
    return this.state === 'connected';
  }

  start(): void {
    if (this.state !== 'idle') return;
    void this.connect();
  }

  stop(): void {
    if (this.state === 'stopped') return;
    this.setState('stopped');
    this.abort.abort();
    this.clearTimers();
    this.ws?.close();
    this.ws = null;
  }

  /** A method, not a field read, so TypeScript does not narrow it across awaits. */
  private stopped(): boolean {
    return this.state === 'stopped';
  }

  private setState(state: DanmakuState): void {
    if (this.state === state) return;
    this.state = state;
    this.emit('state', state);
  }

  private warn(code: BiliErrorCode, message: string, cause?: unknown): void {
    this.emit('warning', new BilibiliError(code, `room ${this.config.roomId}: ${message}`, { cause }));
  }

  private async connect(): Promise<void> {
    if (this.state === 'stopped') return;
    this.setState('connecting');
    let info: DanmuInfo;
    let buvid: string;
    try {
      info = await this.danmuInfo();
      buvid = (await this.api.buvid?.(this.abort.signal)) ?? cookieIdentity(this.options.cookie).buvid ?? '';
    } catch (err) {
      this.warn(BiliErrorCode.DanmakuConnect, `getDanmuInfo failed: ${(err as Error).message}`, err);
      return this.scheduleReconnect(this.options.danmakuRetryMs);
    }
    if (this.stopped()) return;
    const wss = this.options.danmakuTransport === 'wss';
    // Loopback and plain-ws hosts are fine: the simulator answers with 127.0.0.1 and a ws_port only.
    const usable = info.hosts.filter((h) => h.host !== '' && (h.wsPort > 0 || (wss && h.wssPort > 0)));
    const host = usable.length > 0 ? usable[Math.floor(Math.random() * usable.length)]! : FALLBACK_HOST;
    const token = usable.length > 0 ? info.token : '';
    const url = wss && host.wssPort > 0 ? `wss://${host.host}:${host.wssPort}/sub` : `ws://${host.host}:${host.wsPort}/sub`;
    let ws: WsLite;
    try {
      ws = await WsLite.connect(url, { headers: danmakuHeaders(this.options, withBuvid3(this.options.cookie, buvid)), timeoutMs: this.config.connectTimeoutMs ?? 10_000 });
    } catch (err) {
      this.warn(BiliErrorCode.DanmakuConnect, `cannot connect to ${url}: ${(err as Error).message}`, err);
      return this.scheduleReconnect(this.options.danmakuRetryMs);
    }
    if (this.stopped()) return void ws.terminate();
    this.ws = ws;
    this.connectionCookie = this.info?.cookie ?? '';
    this.openedAt = this.lastReceived = Date.now();
    this.stats.connects++;
    ws.on('message', (data: Buffer) => {
      this.lastReceived = Date.now();
      this.receiver.receive(data);
    });
    ws.on('error', (err: Error) => this.warn(BiliErrorCode.DanmakuConnect, `socket error: ${err.message}`, err));
    ws.on('close', () => this.onClose(ws));
    ws.send(encodePacket(Op.Auth, JSON.stringify(authBody({ uid: cookieIdentity(this.options.cookie).uid, roomId: this.config.roomId, buvid, token }))));
    this.sendHeartbeat();
    this.heartbeat = setInterval(() => this.tick(), this.options.danmakuHeartbeatMs);
  }

  private async danmuInfo(): Promise<DanmuInfo> {
    if (this.info && Date.now() - this.info.at < INFO_TTL_MS) return this.info.value;
    const cookie = this.options.cookie;
    const value = await this.api.getDanmuInfo(this.config.roomId, this.abort.signal);
    this.info = { value, at: Date.now(), cookie };
    return value;
  }

  private tick(): void {
    // The service answers every heartbeat; this much silence means a dead connection that never closed.
    if (Date.now() - this.lastReceived > this.options.danmakuHeartbeatMs * 2.5) {
      this.warn(BiliErrorCode.DanmakuConnect, 'no data from the danmaku server; reconnecting');
      this.ws?.terminate();
      return;
    }
    this.sendHeartbeat();
  }

  private sendHeartbeat(): void {
    if (this.ws?.send(encodePacket(Op.Heartbeat))) this.stats.heartbeatsSent++;
  }

  private onClose(ws: WsLite): void {
    if (this.ws !== ws) return;
    this.ws = null;
    this.clearTimers();
    this.stats.disconnects++;
    if (this.state === 'stopped') return;
    const lasted = Date.now() - this.openedAt;
    this.scheduleReconnect(lasted > LONG_CONNECTION_MS ? 0 : this.options.danmakuRetryMs);
  }

  private scheduleReconnect(delayMs: number): void {
    if (this.state === 'stopped') return;
    this.setState('waiting');
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, delayMs);
  }

  private clearTimers(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.retry) clearTimeout(this.retry);
    this.heartbeat = this.retry = null;
  }

  private onAuthReply(code: number): void {
    if (code === 0) return this.setState('connected');
    this.stats.authFailures++;
    this.info = null;
    this.warn(BiliErrorCode.DanmakuAuth, `auth refused with code ${code}; fetching a new token`);
    this.ws?.close();
  }
}
