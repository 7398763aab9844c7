// Each room's chart data: the server's last hour (GET /api/history) continued by the live stats frames, as columns for uPlot.
import { num, type StatsEntry } from './types';

/** Columns, oldest first: t in ms, bitrate in Mbit/s (decimal), pace (null = not measured), bytes written in the session. */
export interface History { t: number[]; mbps: number[]; pace: (number | null)[]; bytes: number[] }
export interface ServerSeries { objectId: string; roomId: number; t: number[]; mbps: number[]; pace: (number | null)[]; bytes: number[] }

export const HISTORY_MS = 3_600_000;
/** ioStats.networkMbps is in Mibit/s. */
const MEBI = 1.048576;

export function fromServer(s: ServerSeries): History {
  return { t: s.t, mbps: s.mbps.map((m) => m * MEBI), pace: s.pace, bytes: s.bytes };
}

export const emptyHistory = (): History => ({ t: [], mbps: [], pace: [], bytes: [] });

/** Appends one stats snapshot and drops what fell out of the hour (in batches, so most appends move nothing). */
export function appendStats(h: History, time: number, s: StatsEntry): void {
  if (h.t.length > 0 && time <= h.t[h.t.length - 1]) return;
  const pace = num(s.durationRatio);
  h.t.push(time);
  h.mbps.push((num(s.networkMbps) || 0) * MEBI);
  h.pace.push(Number.isFinite(pace) ? pace : null);
  h.bytes.push(s.totalOutputBytes);
  let drop = 0;
  while (drop < h.t.length && h.t[drop] < time - HISTORY_MS) drop++;
  if (drop >= 60 || (drop > 0 && drop === h.t.length - 1)) for (const col of [h.t, h.mbps, h.pace, h.bytes]) col.splice(0, drop);
}
