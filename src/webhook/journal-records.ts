// Journal line formats (one JSON object per line) and a lenient line decoder that reports instead of throwing.
import { EVENT_TYPES, type EventType } from '../events/types.js';

export type FinalState = 'delivered' | 'given-up';

/** Folded attempt state of one target, written into `msg` lines by compaction. */
export interface TargetState {
  /** Attempts started so far (a started attempt counts even if its outcome was never seen). */
  n: number;
  /** Epoch ms of the last attempt's start or end. */
  last?: number;
  st?: number;
  err?: string;
  fin?: FinalState;
}

/** One payload for one list of URLs, journaled before any attempt. `m` is the id the receiver sees. */
export interface MsgRecord {
  r: 'msg';
  m: string;
  v: 1 | 2;
  t: EventType;
  /** Epoch ms when the event was journaled. */
  at: number;
  u: string[];
  /** The exact bytes sent on every attempt (a JSON string kept as a string so it never re-serialises). */
  b: string;
  /** Per target; null once the target is finished. Absent on fresh records (no attempts yet). */
  s?: (TargetState | null)[];
}

/** Written before attempt `n` (1-based) to target `i`, so a crash mid-attempt still counts it. */
export interface TryRecord {
  r: 'try';
  m: string;
  i: number;
  n: number;
  at: number;
}

/** The outcome of attempt `n`; `fin` marks the target finished. */
export interface ResRecord {
  r: 'res';
  m: string;
  i: number;
  n: number;
  ok: boolean;
  at: number;
  st?: number;
  err?: string;
  fin?: FinalState;
}

export type JournalRecord = MsgRecord | TryRecord | ResRecord;

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isInt = (x: unknown): x is number => Number.isSafeInteger(x);

/** Decodes one line; null for a torn or foreign line (the caller counts it as an anomaly). */
export function decodeRecord(line: string): JournalRecord | null {
  let x: unknown;
  try {
    x = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObj(x) || typeof x.m !== 'string') return null;
  if (x.r === 'msg') {
    const ok =
      (x.v === 1 || x.v === 2) &&
      (EVENT_TYPES as readonly unknown[]).includes(x.t) &&
      isInt(x.at) &&
      Array.isArray(x.u) &&
      x.u.every((u) => typeof u === 'string') &&
      typeof x.b === 'string' &&
      (x.s === undefined || (Array.isArray(x.s) && x.s.length === x.u.length));
    return ok ? (x as unknown as MsgRecord) : null;
  }
  if ((x.r === 'try' || x.r === 'res') && isInt(x.i) && isInt(x.n) && isInt(x.at)) {
    if (x.r === 'res' && typeof x.ok !== 'boolean') return null;
    return x as unknown as TryRecord | ResRecord;
  }
  return null;
}

export function encodeRecord(record: JournalRecord): string {
  return `${JSON.stringify(record)}\n`;
}
