// Public surface of the live-service clients (API, limiter, stream URL + download, danmaku).
export { BilibiliApiClient } from './api-client.js';
export { ApiLimiter, type ApiLimiterOptions, type ApiLimiterShared, getProcessLimiter, setProcessLimiter } from './api-limiter.js';
export type { CodecEntry, DanmakuHost, DanmuInfo, PlayInfo, RoomInfo, RoomInit, StreamEntry, UrlInfo } from './api-models.js';
export { type ClientOptions, type CodecPreference, clientOptions, DEFAULT_CLIENT_OPTIONS } from './client-options.js';
export { BiliErrorCode, BilibiliError } from './errors.js';
export { apiHeaders, cookieIdentity, DEFAULT_USER_AGENT, streamHeaders } from './headers.js';
export { FALLBACK_WBI_KEYS, mixinKey, signQuery, type WbiKeys } from './wbi.js';
export { chooseQn, parseQualityList, QN_NAMES } from './quality.js';
export { openStream, StreamDownload, type StreamDownloadOptions } from './stream-download.js';
export { codecOrder, pickHost, resolveStreamUrl, selectFlvCodec, type StreamUrl } from './stream-url.js';
export { DanmakuClient, type DanmakuClientConfig, type DanmakuState, type DanmakuStats } from './danmaku/client.js';
export type { DanmakuEvent, DanmakuEventType } from './danmaku/commands.js';
export { decodePackets, encodePacket, Op, Version } from './danmaku/packet.js';
