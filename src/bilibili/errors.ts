// Coded errors of the live-service clients: one stable code per failure the recorder reacts to differently.
import { LiverecError } from '../errors.js';

export const BiliErrorCode = {
  /** The API answered `code != 0` (the service code is in `serviceCode` and the message). */
  ApiError: 'API_ERROR',
  /** 60004 (room_init) / 19002000 (getInfoByRoom): the room does not exist. */
  ApiRoomNotFound: 'API_ROOM_NOT_FOUND',
  /** 19002005: the room is encrypted; brec stops retrying for the session. */
  ApiRoomEncrypted: 'API_ROOM_ENCRYPTED',
  /** HTTP 412 (risk-control block): every API call in every thread pauses. */
  ApiHttp412: 'API_HTTP_412',
  /** `code -412` inside an HTTP 200: same meaning as the HTTP form, same pause. */
  ApiRisk412: 'API_RISK_412',
  /** `code -352` (signature / risk failure): same pause. */
  ApiRisk352: 'API_RISK_352',
  /** Rejected without a request because a 412/-352 paused all API calls. */
  ApiPaused: 'API_PAUSED',
  ApiTimeout: 'API_TIMEOUT',
  ApiHttpStatus: 'API_HTTP_STATUS',
  ApiNetwork: 'API_NETWORK',
  /** Not JSON, no envelope, a missing field or a field of the wrong type. */
  ApiBadResponse: 'API_BAD_RESPONSE',
  /** None of the wanted qn values is in `accept_qn`; brec retries after TimingStreamRetryNoQn. */
  NoMatchingQn: 'NO_MATCHING_QN',
  /** `playurl_info` is null: the room is not (yet) streaming. */
  PlayurlNull: 'PLAYURL_NULL',
  /** No http_stream/flv entry for an allowed codec, or no host in it. */
  NoStream: 'NO_STREAM',
  StreamHttpStatus: 'STREAM_HTTP_STATUS',
  StreamConnectTimeout: 'STREAM_CONNECT_TIMEOUT',
  /** No byte for TimingWatchdogTimeout. */
  StreamStalled: 'STREAM_STALLED',
  /** The connection ended before the response body did (cut mid-tag, reset). */
  StreamAborted: 'STREAM_ABORTED',
  StreamNetwork: 'STREAM_NETWORK',
  StreamRedirect: 'STREAM_REDIRECT',
  /** The room is live but cannot be recorded by this client (paid, password, guard-only, DRM only); see `unavailableReason`. */
  RoomUnavailable: 'ROOM_UNAVAILABLE',
  DanmakuConnect: 'DANMAKU_CONNECT',
  DanmakuAuth: 'DANMAKU_AUTH',
} as const;
export type BiliErrorCode = (typeof BiliErrorCode)[keyof typeof BiliErrorCode];

export interface BiliErrorDetails {
  httpStatus?: number;
  serviceCode?: number;
  /** For API_PAUSED: how long until calls are allowed again. */
  retryAfterMs?: number;
  /** For ROOM_UNAVAILABLE: paid, password, guardOnly or drmOnly. */
  unavailableReason?: string;
  cause?: unknown;
}

export class BilibiliError extends LiverecError {
  readonly httpStatus?: number;
  readonly serviceCode?: number;
  readonly retryAfterMs?: number;
  readonly unavailableReason?: string;

  constructor(code: BiliErrorCode, message: string, details: BiliErrorDetails = {}) {
    super(code, message, details.cause !== undefined ? { cause: details.cause } : undefined);
    this.name = 'BilibiliError';
    if (details.httpStatus !== undefined) this.httpStatus = details.httpStatus;
    if (details.serviceCode !== undefined) this.serviceCode = details.serviceCode;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
    if (details.unavailableReason !== undefined) this.unavailableReason = details.unavailableReason;
  }
}
