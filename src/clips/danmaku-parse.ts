// The kind and time of every element of a danmaku XML, as two typed arrays: what heat and suggestions need, built
// on the danmaku thread (workers/danmaku.worker.ts) and copied to the API thread in one piece.
import { readDanmakuFile, type ItemName } from '../danmaku/read-xml.js';

/** Kinds by their index in `DanmakuTimes.kinds`. */
export const KINDS: readonly ItemName[] = ['d', 'sc', 'gift', 'guard'];

export interface DanmakuTimes {
  /** Index into KINDS per element, in file order. */
  kinds: Uint8Array;
  /** Seconds on the file's timeline per element. */
  ts: Float64Array;
}

/** What the danmaku thread is asked: the XML's full path. */
export interface DanmakuTimesTask {
  path: string;
}

/** Parses the XML (throws as readDanmakuFile: DANMAKU_BAD_INPUT for an unreadable or malformed file). */
export function parseDanmakuTimes(task: DanmakuTimesTask): DanmakuTimes {
  const items = readDanmakuFile(task.path).items;
  const kinds = new Uint8Array(items.length);
  const ts = new Float64Array(items.length);
  items.forEach((item, i) => {
    kinds[i] = KINDS.indexOf(item.name);
    ts[i] = item.ts;
  });
  return { kinds, ts };
}
