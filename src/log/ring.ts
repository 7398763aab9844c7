// The in-memory log ring (last 100 events) behind GET /api/log/fetch, with brec's cursor semantics.

export interface LogFetchResult {
  continuous: boolean;
  cursor: number;
  logs: Record<string, unknown>[];
}

const LEVELS: Record<number, string | undefined> = { 10: 'Verbose', 20: 'Debug', 30: undefined, 40: 'Warning', 50: 'Error', 60: 'Fatal' };

/** Converts one pino JSON record into a CLEF-style object (`@t`, `@mt`, `@l` omitted for Information). */
export function toClef(record: Record<string, unknown>): Record<string, unknown> {
  const { time, msg, level, pid, hostname, err, roomId, ...rest } = record;
  const clef: Record<string, unknown> = {
    '@t': new Date(typeof time === 'number' ? time : Date.now()).toISOString(),
    '@mt': typeof msg === 'string' ? msg : '',
  };
  const l = LEVELS[typeof level === 'number' ? level : 30];
  if (l) clef['@l'] = l;
  if (err && typeof err === 'object' && 'stack' in err) clef['@x'] = String((err as { stack: unknown }).stack);
  if (roomId !== undefined) clef.RoomId = roomId;
  clef.ProcessId = pid;
  return { ...clef, ...rest };
}

export type LogListener = (id: number, log: Record<string, unknown>) => void;

export class LogRing {
  private readonly entries: { id: number; log: Record<string, unknown> }[] = [];
  private readonly listeners = new Set<LogListener>();
  private nextId = 1;

  constructor(private readonly capacity = 100) {}

  /** pino destination interface: one JSON line per call. */
  write(line: string): void {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    if (typeof record.level === 'number' && record.level < 20) return;
    const entry = { id: this.nextId++, log: toClef(record) };
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.shift();
    for (const listener of this.listeners) {
      try {
        listener(entry.id, entry.log);
      } catch {
        // A listener must never break logging.
      }
    }
  }

  /** Live feed of every buffered entry (the event stream and metrics); returns the unsubscribe function. */
  onEntry(listener: LogListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * `after` still in the buffer: only newer logs, continuous. Absent, evicted or unknown: everything, not continuous.
   * An empty buffer answers cursor 0 with no logs (brec answers 500 there; that quirk is not kept).
   */
  fetch(after?: number): LogFetchResult {
    const last = this.entries.at(-1);
    const cursor = last ? last.id : 0;
    if (after !== undefined && this.entries.some((e) => e.id === after)) {
      return { continuous: true, cursor, logs: this.entries.filter((e) => e.id > after).map((e) => e.log) };
    }
    return { continuous: false, cursor, logs: this.entries.map((e) => e.log) };
  }
}
