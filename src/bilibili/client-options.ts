// Settings of the live-service clients; the recorder maps brec config fields onto them (names in the comments).
import { DEFAULT_RECORD_AVOID_HOSTS } from './avoid-hosts.js';
import { DEFAULT_USER_AGENT } from './headers.js';
import { DEFAULT_RECORDING_QUALITY } from './quality.js';

export type DanmakuTransport = 'ws' | 'wss';

export interface ClientOptions {
  /** LiveApiHost: base of every live API call; a simulator URL works the same way. */
  liveApiHost: string;
  /**
   * Base of `/x/web-interface/nav` (WBI keys). Empty = https://api.bilibili.com for the default LiveApiHost,
   * else LiveApiHost itself (a proxy or the simulator serves nav next to the live API).
   */
  mainApiHost: string;
  /** Sign getInfoByRoom / getRoomPlayInfo / getDanmuInfo with WBI (wts + w_rid), as the web player does. */
  wbiSign: boolean;
  /**
   * Without a buvid3 in `cookie`, fetch a guest buvid3/buvid4 from `/x/frontend/finger/spi` (once per thread and
   * main-API host) and send them as cookies on every API call and as `buvid` in the danmaku auth.
   */
  guestIdentity: boolean;
  /** Cookie: sent to the API when non-empty; DedeUserID and buvid3 feed the danmaku auth. */
  cookie: string;
  /** TimingApiTimeout (ms). */
  apiTimeoutMs: number;
  /** TimingStreamConnect (ms): budget until the stream's response headers arrive. */
  streamConnectTimeoutMs: number;
  /** TimingWatchdogTimeout (ms): a download with no byte for this long ends with STREAM_STALLED. */
  watchdogTimeoutMs: number;
  /** TimingDanmakuRetry (ms): reconnect delay after a danmaku connection that lasted under a minute. */
  danmakuRetryMs: number;
  /** Danmaku heartbeat interval (ms); the service expects 30 s. */
  danmakuHeartbeatMs: number;
  /** RecordingQuality: quality tokens in priority order, e.g. "avc10000,hevc10000" (a bare qn is avc). */
  recordingQuality: string;
  /** How long an HTTP 412 / -412 / -352 pauses all API calls (brec: 2 min). */
  riskPauseMs: number;
  userAgent: string;
  /** ws (plain, leaner, what the simulator offers) or wss (TLS, when the host list offers a wss_port). */
  danmakuTransport: DanmakuTransport;
  /** Stream redirects (301/302/307/308) followed by hand before giving up. */
  maxRedirects: number;
  /** RecordAvoidHosts: regular expressions, one per line; matching stream hosts are passed over while another is offered. */
  recordAvoidHosts: string;
}

export const DEFAULT_CLIENT_OPTIONS: Readonly<ClientOptions> = Object.freeze({
  liveApiHost: 'https://api.live.bilibili.com',
  mainApiHost: '',
  wbiSign: true,
  guestIdentity: true,
  cookie: '',
  apiTimeoutMs: 10_000,
  streamConnectTimeoutMs: 5_000,
  watchdogTimeoutMs: 10_000,
  danmakuRetryMs: 9_000,
  danmakuHeartbeatMs: 30_000,
  recordingQuality: DEFAULT_RECORDING_QUALITY,
  riskPauseMs: 120_000,
  userAgent: DEFAULT_USER_AGENT,
  danmakuTransport: 'ws',
  maxRedirects: 5,
  recordAvoidHosts: DEFAULT_RECORD_AVOID_HOSTS,
});

/**
 * Test-only: turns liverec's own WBI signing or guest identity off for a whole run. Never a config field and never
 * read from the environment: only code that starts the service (the test harness) can pass it. It reaches the API
 * clients that recording depends on (room threads and their danmaku, live detection, room-id resolution; not the
 * optional cover job), so a test can prove that the strict simulator refuses what signing and identity protect.
 */
export type ClientTestSwitches = Partial<Pick<ClientOptions, 'wbiSign' | 'guestIdentity'>>;

/** Fills unset fields with the defaults; an empty LiveApiHost means the default host. */
export function clientOptions(partial: Partial<ClientOptions> = {}): ClientOptions {
  const merged: ClientOptions = { ...DEFAULT_CLIENT_OPTIONS };
  for (const [k, v] of Object.entries(partial)) {
    if (v !== undefined) (merged as unknown as Record<string, unknown>)[k] = v;
  }
  merged.liveApiHost = (merged.liveApiHost.trim() || DEFAULT_CLIENT_OPTIONS.liveApiHost).replace(/\/+$/, '');
  if (merged.mainApiHost.trim() === '') {
    merged.mainApiHost = merged.liveApiHost === DEFAULT_CLIENT_OPTIONS.liveApiHost ? 'https://api.bilibili.com' : merged.liveApiHost;
  }
  merged.mainApiHost = merged.mainApiHost.trim().replace(/\/+$/, '');
  return merged;
}
