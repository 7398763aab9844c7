// One room's lifecycle as an explicit state machine: the states, every named transition with its cause, and guards.
import { LiverecError } from '../errors.js';

/*
 * Why one table: a room's life used to be spread over the actor, its session, the host, the supervisor and the
 * detector, and every defect of issue 45 was a state that fell between them (a start still running after stop
 * began, a disposed actor still registered). The actor asks this machine before it acts (may a file open now? may
 * a session start?) and reports every change through it; the model-based test mirrors TRANSITIONS.
 */
export const LIFECYCLE_STATES = ['removed', 'idle', 'checking', 'starting', 'recording', 'stopping'] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

/** Why a transition happened (logs, anomalies, and the model's expectations). */
export type LifecycleCause =
  | 'added' | 'batch' | 'poll' | 'command' | 'danmaku' | 'retry' | 'settings'
  | 'auto' | 'manual' | 'first-file' | 'split' | 'reconnect' | 'new-file'
  | 'offline' | 'cut-off' | 'error' | 'unavailable' | 'disk' | 'ended'
  | 'remove' | 'shutdown';

export interface TransitionRule {
  readonly from: readonly LifecycleState[];
  readonly to: LifecycleState;
}

/** Every legal transition. Anything else is an anomaly: an error in tests, counted and refused in production. */
export const TRANSITIONS = {
  /** The room's actor exists (a re-add is a new lifecycle: the old one ended in removed). */
  add: { from: ['removed'], to: 'idle' },
  /** A live check (getInfoByRoom / play info) of an idle room is in flight. */
  check: { from: ['idle'], to: 'checking' },
  /** The check answered (or failed) and no session started. */
  checked: { from: ['checking'], to: 'idle' },
  /** A session starts (auto record, a manual start, a retry after a failed session). */
  start: { from: ['idle', 'checking'], to: 'starting' },
  /** A file opened: the session's first one, or the next one (split, reconnect, new header). */
  opened: { from: ['starting', 'recording'], to: 'recording' },
  /** The session is told to end (stop, offline, cut off, shutdown, remove); it still closes its files. */
  stop: { from: ['starting', 'recording', 'stopping'], to: 'stopping' },
  /** The session ended and every file it opened is closed. */
  ended: { from: ['starting', 'recording', 'stopping'], to: 'idle' },
  /** The actor is gone for good (removed, or the service stops): nothing starts or opens after this. */
  remove: { from: ['idle', 'checking', 'stopping'], to: 'removed' },
} as const satisfies Record<string, TransitionRule>;

export type TransitionName = keyof typeof TRANSITIONS;

export interface LifecycleRecord {
  name: TransitionName;
  cause: LifecycleCause;
  from: LifecycleState;
  to: LifecycleState;
}

export interface LifecycleOptions {
  roomId: () => number;
  /** Throw on an illegal transition (tests); default: NODE_ENV=test or VITEST set. */
  strict?: boolean;
  /** Told of every transition made. */
  onTransition?: (t: LifecycleRecord) => void;
  /** Told of every illegal transition refused (production: logged with code LIFECYCLE_ANOMALY and counted). */
  onAnomaly?: (message: string, t: Omit<LifecycleRecord, 'to'>) => void;
}

export function strictByDefault(): boolean {
  return process.env.NODE_ENV === 'test' || process.env.VITEST !== undefined;
}

export class RoomLifecycle {
  private current: LifecycleState = 'removed';
  /** Illegal transitions refused so far (production keeps running; tests throw first). */
  anomalies = 0;
  /** A remove or shutdown began: no session may start and no file may open from now on. */
  private closing = false;
  private readonly strict: boolean;

  constructor(private readonly options: LifecycleOptions) {
    this.strict = options.strict ?? strictByDefault();
  }

  get state(): LifecycleState {
    return this.current;
  }

  /** Whether a remove or shutdown began (the session's stop is then final). */
  get ending(): boolean {
    return this.closing;
  }

  /** Whether `name` is legal now. */
  can(name: TransitionName): boolean {
    if (this.closing && (name === 'start' || name === 'opened' || name === 'check' || name === 'add')) return false;
    return (TRANSITIONS[name].from as readonly LifecycleState[]).includes(this.current);
  }

  /** Makes the transition; an illegal one throws in strict mode, else is counted, reported and refused (false). */
  to(name: TransitionName, cause: LifecycleCause): boolean {
    const from = this.current;
    if (!this.can(name)) {
      this.anomalies++;
      const message = `room ${this.options.roomId()}: illegal lifecycle transition ${name} (${cause}) from ${from}${this.closing ? ' while ending' : ''}`;
      this.options.onAnomaly?.(message, { name, cause, from });
      if (this.strict) throw new LiverecError('LIFECYCLE_ILLEGAL', message);
      return false;
    }
    const to = TRANSITIONS[name].to;
    this.current = to;
    this.options.onTransition?.({ name, cause, from, to });
    return true;
  }

  /** Makes the transition only where it is legal (for causes that may race, e.g. a check ending after a start). */
  maybe(name: TransitionName, cause: LifecycleCause): boolean {
    return this.can(name) ? this.to(name, cause) : false;
  }

  /** A remove or shutdown begins: from here on nothing starts or opens; a running session is told to stop. */
  beginEnd(cause: 'remove' | 'shutdown'): void {
    this.closing = true;
    if (this.current === 'starting' || this.current === 'recording') this.to('stop', cause);
  }
}
