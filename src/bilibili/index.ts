// Public surface of the live-service clients (API, limiter, stream URL + download, danmaku).
export { BilibiliApiClient } from './api-client.js';
export { ApiLimiter, type ApiLimiterOptions, type ApiLimiterShared, getProcessLimiter, setProcessLimiter } from './api-limiter.js';
export type { CodecEntry, DanmakuHost, DanmuInfo, PlayInfo, RoomInfo, RoomInit, StreamEntry, UrlInfo } from './api-models.js';
export { type ClientOptions, clientOptions, DEFAULT_CLIENT_OPTIONS } from './client-options.js';
export { BiliErrorCode, BilibiliError } from './errors.js';
export { apiHeaders, cookieIdentity, DEFAULT_USER_AGENT, streamHeaders } from './headers.js';
export { DOCUMENTED_WBI_KEYS, mixinKey, signQuery, type WbiKeys } from './wbi.js';
export { chooseQuality, DEFAULT_RECORDING_QUALITY, parseQualityTokens, QN_NAMES, qualityTokens, type QualityToken, type StreamCodec, tokenText } from './quality.js';
export { openStream, StreamDownload, type StreamDownloadOptions } from './stream-download.js';
export { codecEntries, pickHost, resolveStreamUrl, selectFormat, type StreamUrl } from './stream-url.js';
export { DanmakuClient, type DanmakuClientConfig, type DanmakuState, type DanmakuStats } from './danmaku/client.js';
export type { DanmakuEvent, DanmakuEventType } from './danmaku/commands.js';
export { decodePackets, encodePacket, Op, Version } from './danmaku/packet.js';
