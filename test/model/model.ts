// The model of the room lifecycle: what each room should be doing, mirrored from docs/recording.md, and the record of
// what the test did that the invariants need (when stops began, where the model injected a loss).
import { POOL, TIMING } from './pool.js';
import { FLOOR_PER_MINUTE as RATE_FLOOR_PER_MINUTE } from '../../src/bilibili/api-call-window.js';

export interface ModelRoom {
  roomId: number;
  autoRecord: boolean;
  /** brec's autoRecordForThisSession: /stop clears it until the stream ends; /start and a stream's end set it. */
  flag: boolean;
  /** Should be recording once settled. */
  recording: boolean;
  /**
   * When the last /stop cleared `flag` (ms; 0 = none). brec's flag resets when *its* Streaming goes false, so the model
   * resets it only for a stream liverec saw (`setLive`): one that came and went while every check failed (-352, a bad
   * answer) no recorder saw (soak seed 9696 run 44), and a stop while liverec still took the room for live (it had not
   * seen the offline) applies to that stream, which ends when a check finds a new one (seed 1212 runs 26 and 31).
   */
  stoppedAt: number;
  /** Since when liverec's events speak of this listing of the room in this process (the add asked, the launch). */
  eventsFrom: number;
  /** The room's RecordDanmaku override (null: inherited). */
  recordDanmaku: boolean | null;
}

/** A span in which a room (or every room: null) must not open a file: a stop, a removal, a SIGTERM. */
export interface StopWindow {
  roomId: number | null;
  from: number;
  to: number;
  why: string;
}

/** A span in which the model cut a room's stream: the only place a gap may be reported, and no longer than it. */
export interface Loss {
  roomId: number;
  from: number;
  to: number;
  why: string;
}

export class Model {
  readonly rooms = new Map<number, ModelRoom>();
  readonly live: boolean[];
  readonly removed = new Set<number>();
  batchFailing = false;
  /** A -352 is armed and may pause the API until about then. */
  riskUntil = 0;
  instantDetect = false;
  /** ApiBudgetPerMinute in force. */
  budget = TIMING.budgetPerMinute;
  /**
   * -352 answers armed since the budget's rate last started at its ceiling (a new ApiBudgetPerMinute, a restart):
   * each may halve the learned rate (src/bilibili/api-call-window.ts), and the bounds wait for calls at that rate.
   */
  riskCuts = 0;
  readonly windows: StopWindow[] = [];
  readonly losses: Loss[] = [];
  /** Closed files ffprobe already read. */
  readonly probed = new Set<string>();
  /** Markers added per recording (RelativePath): they must all be there after every command, restarts included. */
  readonly markers = new Map<string, number>();
  /** Clips made (relative outputs): media on disk that no FileOpening announces. */
  readonly clipOutputs = new Set<string>();
  /** Commands run (all runs of one process share the counter through `steps` of the caller). */
  steps = 0;
  /** Accounts logged in by QR code (test/model/account-commands.ts): what liverec should say of each. */
  readonly accounts = new Map<number, 'valid' | 'logged-out'>();
  /** Rooms whose files the model itself may change (a header change, a loss) until then (ms). */
  readonly filesChanging = new Map<number, number>();
  /** Webhooks already searched for secrets. */
  hooksScanned = 0;

  constructor(initialLive: readonly boolean[]) {
    this.live = POOL.map((_, i) => initialLive[i] ?? false);
  }

  liveOf(roomId: number): boolean {
    return this.live[POOL.findIndex((p) => p.roomId === roomId)] ?? false;
  }

  get riskPending(): boolean {
    return Date.now() < this.riskUntil;
  }

  add(roomId: number, autoRecord: boolean, asked = Date.now()): void {
    this.rooms.set(roomId, { roomId, autoRecord, flag: true, recording: autoRecord && this.liveOf(roomId), recordDanmaku: null, stoppedAt: 0, eventsFrom: asked });
    this.removed.delete(roomId);
    this.closeWindows(roomId);
  }

  remove(roomId: number, at: number): void {
    this.rooms.delete(roomId);
    this.removed.add(roomId);
    this.windows.push({ roomId, from: at, to: Infinity, why: 'removed' });
  }

  start(roomId: number): void {
    const r = this.rooms.get(roomId)!;
    r.flag = true;
    if (this.liveOf(roomId)) r.recording = true;
    this.closeWindows(roomId);
  }

  /**
   * `asked`: when the request left. liverec answers a /stop before its room thread takes it (brec's is asynchronous),
   * so a stream end it saw after `asked` may come before the stop and reset nothing, or after it (seed 1212 run 31):
   * the model counts it, as the stop may have met a stream liverec still took for live.
   */
  stop(roomId: number, at: number, asked = at): void {
    const r = this.rooms.get(roomId)!;
    r.flag = false;
    r.stoppedAt = asked;
    r.recording = false;
    this.windows.push({ roomId, from: at, to: Infinity, why: 'stopped' });
  }

  setAutoRecord(roomId: number, on: boolean): void {
    const r = this.rooms.get(roomId)!;
    r.autoRecord = on;
    // Turning it off leaves a running recording alone (brec); turning it on starts one when live and armed, which ends
    // the quiet a stop began (soak seed 7474 run 5: a file opened after stop, offline, toggle off, live, toggle on).
    if (on && r.flag && this.liveOf(roomId)) {
      r.recording = true;
      this.closeWindows(roomId);
    }
  }

  /**
   * `sawStream(roomId, since)`: whether liverec's events show the room streaming at `since`, or a stream start or end
   * after it and before this go-live: only then does a stream's end reach liverec's flag.
   */
  setLive(index: number, live: boolean, sawStream: (roomId: number, since: number, from: number) => boolean = () => true): void {
    this.live[index] = live;
    const r = this.rooms.get(POOL[index]!.roomId);
    if (!r) return;
    if (!live) {
      r.recording = false;
      return;
    }
    if (!r.flag && sawStream(r.roomId, r.stoppedAt, r.eventsFrom)) r.flag = true;
    if (r.autoRecord && r.flag) {
      r.recording = true;
      this.closeWindows(r.roomId);
    }
  }

  /**
   * A new process: nothing of a session survives; auto-record decides alone. Its learned rate starts over, but
   * -352s the simulator still holds for rooms (armed before the stop, not yet answered) cut the new process's rate
   * (soak seed 8585 run 1: three armed just before a kill -9, the restart recorded at 6 calls a minute).
   */
  restarted(armedRisks = 0, launched = Date.now()): void {
    this.riskCuts = armedRisks;
    if (armedRisks > 0) this.armRisk();
    for (const r of this.rooms.values()) {
      r.flag = true;
      r.eventsFrom = launched;
      r.recording = r.autoRecord && this.liveOf(r.roomId);
    }
  }

  stopAll(at: number, why: string): void {
    this.windows.push({ roomId: null, from: at, to: Infinity, why });
  }

  /** The room may record again from now on: its open stop windows end. */
  closeWindows(roomId: number | null, at = Date.now()): void {
    for (const w of this.windows) if (w.to === Infinity && (roomId === null || w.roomId === roomId)) w.to = at;
  }

  /** The learned rate the bounds assume: the ceiling halved per risk answer, never below the limiter's floor. */
  get effectiveBudget(): number {
    return Math.max(RATE_FLOOR_PER_MINUTE, Math.min(this.budget, this.budget / 2 ** this.riskCuts));
  }

  armRisk(): void {
    this.riskUntil = Date.now() + 2 * TIMING.checkIntervalS * 1000 + TIMING.blockedPauseMs + TIMING.slackMs;
  }
}
