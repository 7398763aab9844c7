// Maps a room's resolved brec config onto the live-service client options.
import type { ClientOptions, ClientTestSwitches } from '../bilibili/client-options.js';
import type { RoomSettings } from '../config/fields.js';
import { DEFAULT_RECORD_AVOID_HOSTS } from '../bilibili/avoid-hosts.js';

/** brec DanmakuTransport: 0 Random, 1 Tcp, 2 Ws, 3 Wss. There is no raw-TCP client; Tcp and Random use ws. */
const TRANSPORT: Record<number, ClientOptions['danmakuTransport']> = { 0: 'ws', 1: 'ws', 2: 'ws', 3: 'wss' };

/** `test` (ClientTestSwitches) is for the test harness only; production passes nothing. */
export function clientOptionsFrom(s: RoomSettings, test?: ClientTestSwitches): Partial<ClientOptions> {
  return {
    ...test,
    liveApiHost: s.LiveApiHost ?? '',
    cookie: s.Cookie ?? '',
    apiTimeoutMs: s.TimingApiTimeout,
    streamConnectTimeoutMs: s.TimingStreamConnect,
    watchdogTimeoutMs: s.TimingWatchdogTimeout,
    danmakuRetryMs: s.TimingDanmakuRetry,
    recordingQuality: s.RecordingQuality ?? '',
    recordAvoidHosts: s.RecordAvoidHosts ?? DEFAULT_RECORD_AVOID_HOSTS,
    riskPauseMs: s.TimingApiBlockedPause,
    danmakuTransport: TRANSPORT[s.DanmakuTransport] ?? 'wss',
  };
}
