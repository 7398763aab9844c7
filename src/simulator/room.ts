// One simulated live room: identity, live state, offers, counters, request logs and armed faults.
import type { Clip } from './clips.js';
import type { ApiFault, Armed, ConnectionFault, RequestFault } from './faults.js';
import type { MediaConnection } from './media-connection.js';
import type { DanmakuPeer } from './danmaku-hub.js';
import type { HlsTimeline } from './hls/hls-timeline.js';
import type { CapturedEndpoint } from './captured.js';
import type { SimSpecial } from './special-rooms.js';
import { OriginVariants, type OriginVariantsInit } from './origin-variants.js';
import { LiveStream, type LiveStreamInit } from './live-stream/live-stream.js';

/** Stream formats a room can offer: http_stream/flv, http_hls/ts, http_hls/fmp4. */
export const SIM_FORMATS = ['flv', 'ts', 'fmp4'] as const;
export type SimFormat = (typeof SIM_FORMATS)[number];

export interface SimRoomInit {
  roomId: number;
  shortId?: number;
  uid?: number;
  name?: string;
  title?: string;
  areaNameParent?: string;
  areaNameChild?: string;
  live?: boolean;
  bitrateKbps?: number;
  /** qn values offered (default [10000, 400, 250, 150]). */
  acceptQn?: number[];
  /**
   * Pad video tags with H.264 filler NALUs up to `bitrateKbps` (off by default: recorders drop filler, so
   * padded streams flatter them). Without it a room sends its clip at the clip's own bitrate.
   */
  padWithFiller?: boolean;
  /** Also offer an hevc entry (`_prohevc` URLs, served as codec-12 HEVC FLV from the HEVC clips). */
  hevc?: boolean;
  /** Offer only hevc entries (no avc), as rooms whose original quality exists only as HEVC; implies hevc. */
  hevcOnly?: boolean;
  /** Hands out this stream host instead of the simulator's own (tests: a hostile CDN on loopback). */
  streamHost?: string;
  /**
   * Also offer av1 entries (codec id 2, `_av1` URLs): Enhanced FLV `av01`, fMP4 `av01`, and TS per AOM's AV1-in-MPEG-2-TS
   * (no capture shows AV1 over TS; offered so liverec handles it if the service ever serves it).
   */
  av1?: boolean;
  /** Offer only av1 entries (no avc, no hevc); implies av1. */
  av1Only?: boolean;
  /** Leave the fMP4 entries out of getRoomPlayInfo: HLS only through the play-gateway master playlist. */
  hlsOnlyInMaster?: boolean;
  /** Opaque stream names (`live_b<…>av<…>_2500`) as the service hands out since 2025, instead of `live_<room>_<n>`. */
  opaqueNames?: boolean;
  /** Hands out this danmaku server (ws host and port) instead of the simulator's own (tests: a hostile danmaku socket). */
  danmakuServer?: { host: string; wsPort: number };
  /** Formats offered in play info and served (default all three: an FLV + HLS room). */
  formats?: SimFormat[];
  /** A room a guest cannot record: paid (203 + DRM), DRM-only, password or guard-only (see special-rooms.ts). */
  special?: SimSpecial | null;
  /** Offer the origin and re-encode variants with the real naming (see origin-variants.ts); FLV responses follow one live clock. */
  variants?: OriginVariantsInit;
  /**
   * A live stream on one clock (live-stream/): FLV responses start at the live GOP with the stream's timestamps and
   * the fMP4 HLS carries the same frames; enables flv-outage, hls-foreign and hls-retention. On by default for every
   * room whose content it can carry (AVC only, no variants, own hosts and names, no filler, not special; see
   * `oneClockByDefault`), as the service's FLV and HLS carry the same frames; `false` turns it off.
   */
  liveStream?: LiveStreamInit | false;
  /**
   * Guests (no SESSDATA cookie) get `current_qn` 250 from getRoomPlayInfo while `accept_qn` still lists the higher
   * qualities, as the 2025-07 capture shows for `mid=0`; the master playlist lists every quality. Default: the
   * simulator's `guestQnCap` (on). Not applied to rooms with `variants`.
   */
  guestQnCap?: boolean;
  /**
   * A danmaku connection whose token getDanmuInfo issued to a guest (no logged-in SESSDATA) gets LOG_IN_NOTICE and
   * senders' uid 0 and masked names (danmaku-guest-view.ts), as the service does. Default: the simulator's
   * `guestDanmakuMask` (on).
   */
  guestDanmakuMask?: boolean;
  /** Seconds a handed-out stream URL is valid (`expires` in its query; the service's are about an hour) [3600]. */
  streamTtlSec?: number;
}

export interface RoomCounters {
  apiHits: { total: number; roomInit: number; getInfoByRoom: number; getRoomPlayInfo: number; getDanmuInfo: number; masterPlaylist: number };
  /** Every media request, including ones answered with a fault or redirect. */
  streamRequests: number;
  /** Media requests answered 200 with FLV. */
  streamConnections: number;
  bytesServed: number;
  /** Media milliseconds sent, summed over connections (advances of the tag timestamps; jumps excluded). */
  mediaMsServed: number;
  /** Danmaku sockets that authenticated. */
  danmakuConnections: number;
  /** Auth packets naming this room, accepted or not. */
  danmakuAuths: number;
  heartbeats: number;
  danmakuMessagesSent: number;
  /** LOG_IN_NOTICE sent: sockets authenticated with a guest's token (their senders arrive masked). */
  loginNotices: number;
  hlsPlaylistRequests: number;
  hlsSegmentRequests: number;
  /** Segments answered 200 (retries and repeats included). */
  hlsSegmentsServed: number;
  /** Media milliseconds of the distinct segments served (EXTINF durations). */
  hlsMediaMsServed: number;
  /** Bytes of HLS media segments sent (every request; playlists and init sections not counted). */
  hlsBytesServed: number;
  /** The most stream responses open at once (a cluster must never hold two for one room). */
  maxOpenStreams: number;
  /** The longest time two stream responses of this room were open together (ms, counted when one closes). */
  maxStreamOverlapMs: number;
}

export interface RequestRecord {
  at: number;
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
}

const LOG_SIZE = 20;

export function pushLog<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > LOG_SIZE) list.shift();
}

/**
 * Rooms on one clock by default: those offering FLV and fMP4 together (alignment is what a recorder joining the two
 * needs), whose content the live stream can carry: AVC from the room's clip (its TS keeps the clip timeline).
 */
export function oneClockByDefault(init: SimRoomInit): boolean {
  const formats = init.formats ?? SIM_FORMATS;
  return formats.includes('flv') && formats.includes('fmp4') && !init.hevc && !init.hevcOnly && !init.av1 && !init.av1Only && !init.variants && !init.hlsOnlyInMaster && !init.opaqueNames &&
    !init.streamHost && !init.special && !init.padWithFiller;
}

export class SimRoom {
  readonly roomId: number;
  shortId: number;
  uid: number;
  name: string;
  title: string;
  areaNameParent: string;
  areaNameChild: string;
  /** 0 offline, 1 live, 2 round. */
  liveStatus: 0 | 1 | 2;
  /** Unix seconds of the current live start, 0 when offline. */
  liveStartTime: number;
  bitrateKbps: number;
  acceptQn: number[];
  hevc: boolean;
  streamHost: string | null;
  danmakuServer: { host: string; wsPort: number } | null;
  padWithFiller: boolean;
  hevcOnly: boolean;
  av1: boolean;
  av1Only: boolean;
  hlsOnlyInMaster: boolean;
  opaqueNames: boolean;
  guestQnCap: boolean;
  guestDanmakuMask: boolean;
  streamTtlSec: number;
  /** codec-switch: every URL serves the other codec (an avc URL carries HEVC and the other way round). */
  codecSwapped = false;
  /** The simulator's content clip nearest `bitrateKbps`; null = the committed 360p clip. */
  content: Clip | null = null;
  formats: SimFormat[];
  special: SimSpecial | null;
  /** Captured answers replayed for this room instead of the generated ones (POST /_sim/rooms/{id}/captured). */
  readonly captured = new Map<CapturedEndpoint, unknown>();
  /** The live HLS timelines of the current live session, by format (see hls/hls-timeline.ts). */
  hls: { session: number; fmp4?: HlsTimeline; 'fmp4-hevc'?: HlsTimeline; 'fmp4-av1'?: HlsTimeline; ts?: HlsTimeline; 'ts-hevc'?: HlsTimeline; 'ts-av1'?: HlsTimeline } = { session: 0 };
  /** 0 = the content clip (or committed 360p), 1 = the committed 480p clip: flips on every header-change. */
  clipIndex = 0;
  popularity = 1000;
  /** Increments with every live start; part of stream paths like the real `live_<uid>_<n>`. */
  session = 1;
  /** When the current session went offline (epoch ms), null while live: its HLS segments stay on the CDN a while. */
  endedAt: number | null = null;
  readonly counters: RoomCounters = {
    apiHits: { total: 0, roomInit: 0, getInfoByRoom: 0, getRoomPlayInfo: 0, getDanmuInfo: 0, masterPlaylist: 0 },
    streamRequests: 0, streamConnections: 0, bytesServed: 0, mediaMsServed: 0, danmakuConnections: 0, danmakuAuths: 0, heartbeats: 0, danmakuMessagesSent: 0, loginNotices: 0,
    hlsPlaylistRequests: 0, hlsSegmentRequests: 0, hlsSegmentsServed: 0, hlsMediaMsServed: 0, hlsBytesServed: 0, maxOpenStreams: 0, maxStreamOverlapMs: 0,
  };
  readonly apiLog: RequestRecord[] = [];
  readonly streamLog: RequestRecord[] = [];
  readonly authLog: Record<string, unknown>[] = [];
  /** Headers of the danmaku WebSocket upgrades whose auth named this room. */
  readonly upgradeLog: RequestRecord[] = [];
  readonly heartbeatTimes: number[] = [];
  /** Tokens handed out by getDanmuInfo; the danmaku auth must present one of them. */
  readonly tokens: string[] = [];
  /** The tokens of `tokens` issued to guests (no logged-in SESSDATA): their connections see masked senders (danmaku-guest-view.ts). */
  readonly guestTokens = new Set<string>();
  readonly apiFaults: Armed<ApiFault>[] = [];
  readonly requestFaults: Armed<RequestFault>[] = [];
  readonly connectionFaults: Armed<ConnectionFault>[] = [];
  readonly media = new Set<MediaConnection>();
  /** Origin/re-encode variants, null for a room with one unnamed stream. */
  readonly variants: OriginVariants | null;
  readonly danmaku = new Set<DanmakuPeer>();
  /** Set for live-stream rooms (see SimRoomInit.liveStream); dropped when an HLS fault is armed on a default one. */
  liveStream: LiveStream | null;
  /** The live stream came by default (not asked for): HLS faults, which act on the clip timeline, turn it off. */
  readonly liveStreamByDefault: boolean;

  constructor(init: SimRoomInit) {
    this.roomId = init.roomId;
    this.shortId = init.shortId ?? 0;
    this.uid = init.uid ?? init.roomId * 10 + 7;
    this.name = init.name ?? `sim-${init.roomId}`;
    this.title = init.title ?? `Simulated room ${init.roomId}`;
    this.areaNameParent = init.areaNameParent ?? '虚拟主播';
    this.areaNameChild = init.areaNameChild ?? '虚拟日常';
    this.bitrateKbps = init.bitrateKbps ?? 2000;
    this.acceptQn = init.acceptQn ?? [10000, 400, 250, 150];
    this.hevcOnly = init.hevcOnly ?? false;
    this.hevc = (init.hevc ?? false) || this.hevcOnly;
    this.padWithFiller = init.padWithFiller ?? false;
    this.av1Only = init.av1Only ?? false;
    this.av1 = (init.av1 ?? false) || this.av1Only;
    this.hlsOnlyInMaster = init.hlsOnlyInMaster ?? false;
    this.opaqueNames = init.opaqueNames ?? false;
    this.guestQnCap = init.guestQnCap ?? true;
    this.guestDanmakuMask = init.guestDanmakuMask ?? true;
    this.streamTtlSec = init.streamTtlSec ?? 3600;
    this.streamHost = init.streamHost ?? null;
    this.danmakuServer = init.danmakuServer ?? null;
    this.formats = init.formats ?? ['flv', 'ts', 'fmp4'];
    this.special = init.special ?? null;
    this.variants = init.variants ? new OriginVariants(init.variants) : null;
    this.liveStatus = init.live ? 1 : 0;
    this.liveStartTime = init.live ? Math.floor(Date.now() / 1000) : 0;
    const ls = init.liveStream ?? (oneClockByDefault(init) ? {} : false);
    this.liveStreamByDefault = init.liveStream === undefined && ls !== false;
    this.liveStream = ls ? new LiveStream(ls) : null;
    if (this.liveStream && init.live) this.liveStartTime = Math.floor(this.liveStream.startedAt / 1000);
  }

  get live(): boolean {
    return this.liveStatus === 1;
  }

  /** The control API's view of the room. */
  toJSON(): Record<string, unknown> {
    return {
      roomId: this.roomId, shortId: this.shortId, uid: this.uid, name: this.name, title: this.title,
      areaNameParent: this.areaNameParent, areaNameChild: this.areaNameChild, live: this.live, liveStatus: this.liveStatus,
      liveStartTime: this.liveStartTime, bitrateKbps: this.bitrateKbps, acceptQn: this.acceptQn, hevc: this.hevc, formats: this.formats,
      padWithFiller: this.padWithFiller, content: this.content ? { name: this.content.name, kbps: Math.round(this.content.kbps) } : null,
      variants: this.variants ? { originAvailable: this.variants.originAvailable, bluray: this.variants.bluray, outages: this.variants.outages, originReturnDelayMs: this.variants.returnDelayMs } : null,
      hevcOnly: this.hevcOnly, special: this.special, captured: [...this.captured.keys()], av1: this.av1, av1Only: this.av1Only, hlsOnlyInMaster: this.hlsOnlyInMaster,
      opaqueNames: this.opaqueNames, guestQnCap: this.guestQnCap, guestDanmakuMask: this.guestDanmakuMask, codecSwapped: this.codecSwapped, clip: this.clipIndex, counters: this.counters,
      openStreams: this.media.size, openDanmaku: this.danmaku.size,
      pendingFaults: [...this.apiFaults, ...this.requestFaults, ...this.connectionFaults].map((a) => ({ ...a.fault, remaining: a.remaining, until: a.until })),
      apiLog: this.apiLog, streamLog: this.streamLog, authLog: this.authLog, upgradeLog: this.upgradeLog, heartbeatTimes: this.heartbeatTimes,
    };
  }
}
