// Simulated origin and re-encode variants: the real naming (no suffix / _bluray / _4000 …), qn 25000, origin outages and their return.
import { performance } from 'node:perf_hooks';
import type { ClipTag } from './clips.js';

/** What a room offering variants is created with (SimRoomInit.variants). */
export interface OriginVariantsInit {
  /** Offer the CDN's re-encode `_bluray` at qn 10000 (default true). Without it qn 10000 is the origin itself. */
  bluray?: boolean;
  /**
   * How long the origin stays away after an outage (`originOutage`), in ms; default 30 000, as the service was seen to
   * hand out `_bluray` after a reconnect and the origin again some half a minute later. Tests use a shorter one.
   */
  originReturnDelayMs?: number;
  /** `origin_bitrate` in every URL (bit/s; the source's bitrate, the same on every variant). */
  originBitrate?: number;
  /** Whether the origin is offered from the start (default true; false = a room that only hands out _bluray until originReturn). */
  originAvailable?: boolean;
}

/** One offered variant: its stream-name suffix ('' = the origin), the `suffix=` value and the qn it is served at. */
export interface Variant {
  suffix: string;
  querySuffix: string;
  currentQn: number;
}

/** The variant state of a room: whether the origin is offered now, and the shared live clock all responses follow. */
export class OriginVariants {
  readonly bluray: boolean;
  returnDelayMs: number;
  readonly originBitrate: number;
  originAvailable = true;
  /** Outages so far (for tests). */
  outages = 0;
  /** performance.now() of the room's live clock zero: every response serves the same frame at the same time. */
  readonly epoch = performance.now();
  timer: NodeJS.Timeout | null = null;

  constructor(init: OriginVariantsInit) {
    this.bluray = init.bluray ?? true;
    this.returnDelayMs = init.originReturnDelayMs ?? 30_000;
    this.originBitrate = init.originBitrate ?? 1_272_698;
    this.originAvailable = init.originAvailable ?? true;
  }

  /**
   * The variant play info hands out for an asked qn: 25000 (原画真彩) gives the origin while it is offered, else the
   * re-encode at 10000; 10000 gives `_bluray` (or the origin when the room has no re-encode); lower qn their transcodes.
   */
  offer(askedQn: number, accept: readonly number[]): Variant {
    if (askedQn === 25000 && this.originAvailable) return { suffix: '', querySuffix: 'origin', currentQn: 25000 };
    const qn = accept.includes(askedQn) ? askedQn : accept.includes(10000) ? 10000 : accept[0] ?? 10000;
    if (qn >= 10000) return this.bluray || !this.originAvailable ? { suffix: '_bluray', querySuffix: 'bluray', currentQn: 10000 } : { suffix: '', querySuffix: 'origin', currentQn: 10000 };
    return { suffix: `_${qn * 10}`, querySuffix: String(qn * 10), currentQn: qn };
  }

  /** Whether a media request for this suffix is served now (an absent origin answers 404, as a CDN without the stream). */
  serves(suffix: string): boolean {
    if (suffix === '') return this.originAvailable;
    return suffix === '_bluray' ? this.bluray || !this.originAvailable : /^_\d{4}$/.test(suffix);
  }

  /** The media position of the live clock now (ms). */
  livePosition(now: number): number {
    return Math.max(0, now - this.epoch);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** The URL query of a variant, in the real parameter names (`suffix=`, `origin_bitrate=`, `sid_l=`). */
export function variantQuery(v: Variant, variants: OriginVariants, streamName: string): string {
  return `&suffix=${v.querySuffix}&origin_bitrate=${variants.originBitrate}&sid_l=${streamName}${v.suffix}`;
}

/** The captured `master_qn_strategy_chg` command (danmaku/bac_cmd_master_qn_strategy_chg.json): data is a JSON string. */
export function masterQnStrategyChg(): Record<string, unknown> {
  return { cmd: 'master_qn_strategy_chg', data: JSON.stringify({ mtime: Math.floor(Date.now() / 1000), scatter: [0, 300] }) };
}

/**
 * Where a response joining the live clock at `position` starts: the last keyframe at or before it (a CDN's GOP cache),
 * as the index in the loop and the loop's base time.
 */
export function liveStart(tags: readonly ClipTag[], periodMs: number, position: number): { idx: number; loopBase: number } {
  const loopBase = Math.floor(position / periodMs) * periodMs;
  const inLoop = position - loopBase;
  let idx = 0;
  for (let i = 0; i < tags.length; i++) {
    const t = tags[i]!;
    if (t.ts > inLoop) break;
    if (t.video && t.body[0]! >> 4 === 1) idx = i;
  }
  return { idx, loopBase };
}
