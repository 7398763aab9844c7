// Danmaku heat: how many comments, super chats, gifts and guard purchases fall in each bucket of a recording's timeline.
import type { DanmakuTimes } from './danmaku-parse.js';

export interface HeatBucket {
  /** Start of the bucket, seconds on the file's timeline. */
  startS: number;
  danmaku: number;
  superChats: number;
  gifts: number;
  guards: number;
}

export interface Density {
  bucketS: number;
  buckets: HeatBucket[];
  /** Elements per kind over the whole file: the buckets add up to these. */
  totals: { danmaku: number; superChats: number; gifts: number; guards: number };
}

/** Fields by kind index (danmaku-parse.ts KINDS). */
const FIELD = ['danmaku', 'superChats', 'gifts', 'guards'] as const;

/** Buckets from 0 to the last element (or `untilS`, whichever is later); an element before 0 counts in the first. */
export function densityOf(items: DanmakuTimes, bucketS: number, untilS = 0): Density {
  const last = items.ts.reduce((m, t) => Math.max(m, t), untilS);
  const count = Math.max(1, Math.floor(last / bucketS) + 1);
  const buckets: HeatBucket[] = Array.from({ length: count }, (_, k) => ({ startS: Math.round(k * bucketS * 1000) / 1000, danmaku: 0, superChats: 0, gifts: 0, guards: 0 }));
  const totals = { danmaku: 0, superChats: 0, gifts: 0, guards: 0 };
  for (let i = 0; i < items.ts.length; i++) {
    const k = Math.min(count - 1, Math.max(0, Math.floor(items.ts[i]! / bucketS)));
    const field = FIELD[items.kinds[i]!]!;
    buckets[k]![field]++;
    totals[field]++;
  }
  return { bucketS, buckets, totals };
}

/** A bucket's heat: every element counts once. */
export const heatOf = (b: Omit<HeatBucket, 'startS'>): number => b.danmaku + b.superChats + b.gifts + b.guards;
