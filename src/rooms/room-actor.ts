// One room's actor (runs in a worker): live detection, auto/manual recording, danmaku, commands, events.
import { stripControlChars } from '../template/control-chars.js';
import { BilibiliApiClient } from '../bilibili/api-client.js';
import type { UnavailableReason } from '../bilibili/room-availability.js';
import { DanmakuClient } from '../bilibili/danmaku/client.js';
import { type DanmakuEvent, MAX_FIELD_CHARS } from '../bilibili/danmaku/commands.js';
import type { BatchRoomStatus } from '../bilibili/batch-status.js';
import type { ApiPriority } from '../bilibili/api-priority.js';
import type { RoomSettings } from '../config/fields.js';
import { DanmakuRecorder } from '../danmaku/recorder.js';
import type { RoomEventSnapshot } from '../events/types.js';
import { LiverecError } from '../errors.js';
import { formatLocal } from '../time.js';
import { ActorOutbox } from './actor-outbox.js';
import { RoomAvailability } from './availability.js';
import { clientOptionsFrom } from './client-settings.js';
import { initialRoomState, type RoomCommand, type RoomInit, type RoomMessage, type RoomState } from './protocol.js';
import { RecordSession } from './record-session.js';
import { type LifecycleCause, RoomLifecycle } from './room-lifecycle.js';
import { StatsTracker } from './stats-tracker.js';
import { titleFiltered } from './title-filter.js';
import type { StatsBatcher } from './stats-batcher.js';
import { offerPreviewDanmaku } from '../preview/tap.js';

/** Seconds between two live_time values that make them two streams (see newBroadcast). */
const RESTART_MIN_S = 2;

/** How long the danmaku socket stays open after a stream ends (a quick restart is still seen at once). */
export const DANMAKU_LINGER_MS = 120_000;

export class RoomActor {
  readonly outbox: ActorOutbox;
  readonly stats = new StatsTracker();
  private settings: RoomSettings;
  private roomId: number;
  private readonly state: RoomState = initialRoomState();
  private client: BilibiliApiClient;
  private danmaku: DanmakuClient | null = null;
  private session: { session: RecordSession; done: Promise<void> } | null = null;
  private roomInfo: unknown = {};
  private infoFetched = false;
  /** The batch detector's answer gave this room's facts (uid, title, area, live_time): enough to start without room info. */
  private factsFromDetector = false;
  /** Unix seconds of the current stream's start as last seen (detector or room info); 0 unknown. */
  private liveTime = 0;
  /** When this room last saw its room go live (epoch ms): a stream that began before it is one it knows. */
  private streamSeenAt = 0;
  /** The running session asked for its stream: the danmaku token may be asked for now (it queues behind starts). */
  private streamTried = false;
  private pollTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private infoFailures = 0;
  private disposed = false;
  private lingerTimer: NodeJS.Timeout | null = null;
  /**
   * A /start whose check failed (the API paused after a risk-control answer, a timeout): whether the room is live is
   * unknown, so the next check that finds it live starts the recording, with AutoRecord off too (brec's start keeps
   * trying until the stream ends or /stop). A check that finds it offline drops it, as brec's start does, and so does
   * a stream that began after the start (live_time): the room went offline and live again unseen. 'checking': the
   * start's own check is running; 'waiting': it failed.
   */
  private startPending: 'checking' | 'waiting' | null = null;
  /** When that /start was asked (ms): only a stream that was live then is the one it asked for. */
  private startPendingAt = 0;
  private readonly availability: RoomAvailability;
  /** The room's lifecycle (room-lifecycle.ts): what may start, open or end now. */
  readonly lifecycle: RoomLifecycle;
  private readonly danmakuFiles = new DanmakuRecorder({
    settings: () => this.settings,
    info: () => {
      const s = this.state;
      return { roomId: this.roomId, shortId: s.shortId, name: s.name, title: s.title, areaNameParent: s.areaNameParent, areaNameChild: s.areaNameChild };
    },
    log: (level, msg, fields) => this.outbox.log(level, msg, fields),
  });

  constructor(
    private readonly init: RoomInit,
    post: (m: RoomMessage) => void,
    batcher: StatsBatcher,
    private readonly onRealId: (id: number) => void,
  ) {
    this.settings = init.settings;
    this.roomId = init.roomId;
    this.outbox = new ActorOutbox(post, batcher, init.roomId);
    this.client = new BilibiliApiClient(clientOptionsFrom(this.settings, this.init.clientTestSwitches));
    this.availability = new RoomAvailability(this.outbox, () => this.settings.TimingApiBlockedPause);
    this.lifecycle = new RoomLifecycle({
      roomId: () => this.roomId,
      strict: init.strictLifecycle,
      onAnomaly: (msg, t) => this.outbox.log('warn', msg, { code: 'LIFECYCLE_ANOMALY', transition: t.name, cause: t.cause, from: t.from }),
    });
  }

  begin(): void {
    this.lifecycle.to('add', 'added');
    this.outbox.state({ ...this.state });
    if (this.init.batchDetect) {
      // The batch detector watches this room (it learns the uid in batches too): nothing is called until it reports
      // the room live, or asks for a check of its own (fallback). A room that keeps its danmaku socket needs its info now.
      if (this.init.uid) {
        this.state.uid = this.init.uid;
        this.outbox.state({ uid: this.init.uid });
      }
      if (this.settings.DanmakuInstantDetect) void this.refreshSafely().then(() => this.ensureDanmaku());
      return;
    }
    this.restartPoll();
    void this.refreshSafely().then(() => this.ensureDanmaku());
  }

  async command(command: RoomCommand): Promise<void> {
    if (this.disposed) return;
    switch (command) {
      case 'start':
        this.state.autoRecordForThisSession = true;
        this.outbox.state({ autoRecordForThisSession: true });
        // A session told to stop may still be closing its file (a fill plan, the last group): a start meanwhile
        // would find it and do nothing, so the new session starts once it has ended.
        if (this.session?.session.stopping) await this.session.done;
        if (!this.session && this.state.autoRecordForThisSession && !this.disposed) {
          this.startPending = 'checking';
          this.startPendingAt = Date.now();
          const known = await this.refreshSafely('command', 'start');
          if (this.state.streaming && !this.availability.reason) this.startSession('manual');
          if (this.startPending === 'checking') this.startPending = known || this.session ? null : 'waiting';
        }
        return;
      case 'stop':
        this.state.autoRecordForThisSession = false;
        this.startPending = null;
        this.outbox.state({ autoRecordForThisSession: false });
        this.stopSession('manual');
        return;
      case 'split':
        this.session?.session.split();
        return;
      case 'refresh':
        await this.refresh();
        this.ensureDanmaku();
        return;
      case 'check':
        await this.refreshSafely('batch', 'detect');
        this.ensureDanmaku();
        return;
      case 'dispose':
        return this.dispose('remove');
      case 'testThrow':
        // An uncaught exception thrown from inside the worker, as a bug would (test builds only).
        if (this.init.allowTestFaults) setImmediate(() => { throw new Error(`test fault in room ${this.roomId}`); });
        return;
      case 'testCrash':
        if (this.init.allowTestFaults) process.exit(70);
        return;
      case 'testHangStop':
        // A stop that cannot reach what the session waits on (soak seed 6363 run 36), as a bug would (test builds only).
        if (this.init.allowTestFaults) this.session?.session.stopUnheard();
        return;
      case 'testOom':
        // A runaway room: allocate until the worker's resourceLimits stop it (test builds only).
        if (this.init.allowTestFaults) setImmediate(() => {
          const hoard: number[][] = [];
          for (;;) hoard.push(new Array(1 << 16).fill(hoard.length));
        });
        return;
    }
  }

  /** What the process's batch detector saw: facts are taken as they are; a room that turned live gets its full check now. */
  observe(s: BatchRoomStatus, newStream = false): void {
    if (this.disposed) return;
    const facts = {
      uid: s.uid, shortId: s.shortId, name: s.uname || this.state.name, title: s.title || this.state.title,
      areaNameParent: s.parentAreaName || this.state.areaNameParent, areaNameChild: s.areaName || this.state.areaNameChild,
    };
    Object.assign(this.state, facts);
    this.outbox.state(facts);
    const live = s.liveStatus === 1;
    if (!live) this.dropPendingStart();
    if (live) this.newBroadcast(s.liveTime, newStream);
    if (live && s.liveTime > 0) this.liveTime = s.liveTime;
    if (live && !this.state.streaming) {
      // Issue 48: the batch answer already says live, with title, area and uid; the start's one call is play info.
      if (this.startsFromStatus(s)) {
        this.factsFromDetector = true;
        this.setStreaming(true);
      } else void this.refreshSafely('batch', 'start').then(() => this.ensureDanmaku());
    } else if (!live && this.state.streaming && !this.session) this.setStreaming(false);
  }

  /**
   * Whether a live flip seen by the batch detector can start the stream without getInfoByRoom: not for a room configured
   * by a short id (room info finds the real one), one the service would not let us record (its check is play info),
   * nor when the file name template reads `json` (the raw room info).
   */
  private startsFromStatus(s: BatchRoomStatus): boolean {
    return s.roomId === this.roomId && !this.availability.reason && !/\bjson\b/.test(this.settings.FileNameRecordTemplate ?? '');
  }

  updateSettings(settings: RoomSettings): void {
    const before = this.settings;
    this.settings = settings;
    this.client = new BilibiliApiClient(clientOptionsFrom(settings, this.init.clientTestSwitches));
    // Another login (account moved, cookie refreshed): the danmaku socket's next token is asked with it.
    if (before.Cookie !== settings.Cookie) this.danmaku?.useLogin(this.client.withPriority('danmaku'), clientOptionsFrom(settings, this.init.clientTestSwitches));
    if (before.TimingCheckInterval !== settings.TimingCheckInterval && (!this.init.batchDetect || this.pollTimer)) this.restartPoll();
    if (settings.DanmakuInstantDetect !== before.DanmakuInstantDetect) {
      if (settings.DanmakuInstantDetect) {
        if (this.infoFetched) this.ensureDanmaku();
        else void this.refreshSafely().then(() => this.ensureDanmaku());
      } else if (!this.state.streaming) this.closeDanmaku();
    }
    if (settings.AutoRecord) this.maybeStart();
  }

  /** Stops everything; a running session closes its files and ends before this resolves. Nothing starts or opens after the call. */
  async dispose(cause: 'remove' | 'shutdown' = 'shutdown'): Promise<void> {
    if (this.disposed) return this.disposing;
    this.disposed = true;
    this.lifecycle.beginEnd(cause);
    this.disposing = this.end(cause);
    return this.disposing;
  }

  private disposing: Promise<void> = Promise.resolve();

  private async end(cause: 'remove' | 'shutdown'): Promise<void> {
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.danmaku?.stop();
    this.danmaku = null;
    const running = this.session;
    running?.session.stop();
    await running?.done;
    this.lifecycle.to('remove', cause);
    this.outbox.flush();
  }

  /** The worker is dying: close the open file now (synchronously). */
  emergencyClose(): void {
    this.session?.session.emergencyClose();
    this.outbox.flush();
  }

  private snapshot(): RoomEventSnapshot {
    const s = this.state;
    return {
      RoomId: this.roomId, ShortId: s.shortId, Name: s.name, Title: s.title, AreaNameParent: s.areaNameParent,
      AreaNameChild: s.areaNameChild, Recording: s.recording, Streaming: s.streaming, DanmakuConnected: s.danmakuConnected,
    };
  }

  private restartPoll(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = setInterval(() => void this.poll(), Math.max(1, this.settings.TimingCheckInterval) * 1000);
  }

  /**
   * Under batch detection a room has no timer of its own, except one the service will not let us record (paid,
   * password, not found…): the batch status cannot tell when that ends, so it is checked once per interval as before.
   */
  private syncPoll(): void {
    if (!this.init.batchDetect || this.disposed) return;
    const want = this.availability.reason !== null;
    if (want && !this.pollTimer) this.restartPoll();
    else if (!want && this.pollTimer) {
      clearInterval(this.pollTimer);
      this.pollTimer = null;
    }
  }

  /**
   * One timer check of the room at a time: with a short API budget a check waits long for its turn, and a timer that
   * queued another meanwhile piled old checks up in the budget's queue, where they went before a /start's calls
   * (soak seed 8585 run 47: a manual start waited over three minutes).
   */
  private async poll(): Promise<void> {
    this.ensureDanmaku();
    if (this.polling || !(this.settings.AutoRecord || !this.infoFetched)) return;
    this.polling = true;
    try {
      await this.refreshSafely('poll');
    } finally {
      this.polling = false;
    }
  }

  private polling = false;

  /** getInfoByRoom: room facts, the real id (when configured with a short id) and the live flag. */
  private async refresh(priority: ApiPriority = 'info'): Promise<void> {
    if (this.availability.checkedByPlayInfo && this.infoFetched) return this.recheckUnavailable(priority);
    const info = await this.client.withPriority(priority).getRoomInfo(this.roomId);
    if (this.disposed) return;
    this.infoFailures = 0;
    this.availability.infoOk();
    if (info.roomId !== this.roomId && info.roomId > 0) {
      this.outbox.log('info', 'configured id is a short id; using the real room id', { realRoomId: info.roomId });
      this.onRealId(info.roomId);
      this.outbox.post({ type: 'roomId', roomId: this.roomId, realRoomId: info.roomId });
      if (this.disposed) return; // a duplicate of a room this host already runs (room-host rekey)
      this.roomId = info.roomId;
      this.outbox.setRoomId(info.roomId);
      this.danmaku?.stop();
      this.danmaku = null;
    }
    Object.assign(this.state, {
      // Cut as danmaku titles are: a hostile API's 4 MB title must not travel to the main thread on every change;
      // control characters (a NUL) go, since names and titles reach file names and PostCommand's environment.
      shortId: info.shortId, name: stripControlChars(info.anchorName.slice(0, MAX_FIELD_CHARS)), uid: info.uid, title: stripControlChars(info.title.slice(0, MAX_FIELD_CHARS)),
      areaNameParent: stripControlChars(info.parentAreaName.slice(0, MAX_FIELD_CHARS)), areaNameChild: stripControlChars(info.areaName.slice(0, MAX_FIELD_CHARS)),
    });
    this.roomInfo = info.raw;
    this.infoFetched = true;
    if (info.liveStatus === 1) this.newBroadcast(info.liveStartTime);
    this.liveTime = info.liveStatus === 1 ? info.liveStartTime : 0;
    const { shortId, name, uid, title, areaNameParent, areaNameChild } = this.state;
    this.outbox.state({ shortId, name, uid, title, areaNameParent, areaNameChild });
    this.setStreaming(info.liveStatus === 1);
  }

  /**
   * A room that cannot be recorded (paid, password, guard-only, DRM) is checked with one getRoomPlayInfo per
   * interval: it carries the live flag and the reason both.
   */
  private async recheckUnavailable(priority: ApiPriority): Promise<void> {
    const status = await this.client.withPriority(priority).getRoomStatus(this.roomId);
    if (this.disposed) return;
    const live = status.play.liveStatus === 1;
    this.availability.set(live ? status.unavailableReason : null);
    this.setStreaming(live);
  }

  /** A failed refresh is logged; until room info was fetched once, it is retried with backoff (not for an unavailable room). */
  private async refreshSafely(cause: LifecycleCause = 'poll', priority: ApiPriority = 'info'): Promise<boolean> {
    const checking = this.lifecycle.maybe('check', cause);
    try {
      await this.refresh(priority);
      this.syncPoll();
      return true;
    } catch (err) {
      const code = (err as { code?: string }).code;
      this.outbox.log('warn', `room info: ${(err as Error).message}`, { code });
      this.availability.failed(code);
      this.syncPoll();
      // An unavailable room is checked again at the normal interval only: one API call per interval.
      if (this.infoFetched || this.disposed || this.availability.reason) return false;
      const delay = Math.min(this.settings.TimingCheckInterval * 1000, this.settings.TimingStreamRetry * 2 ** this.infoFailures++);
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => void this.refreshSafely('retry').then(() => this.ensureDanmaku()), delay);
      return false;
    } finally {
      // A check that started a session has moved on to starting; one that did not is over.
      if (checking) this.lifecycle.maybe('checked', cause);
    }
  }

  /**
   * A live answer whose live_time is another stream's than the one we saw: the room went offline and live again
   * between two checks. The stream we missed ends first (StreamEnded, auto recording re-armed as for any end), so a
   * stop asked for the old stream does not hold the new one back (soak seed 8585 run 21). A recording room's
   * connection sees the end itself. Two endpoints may round the same start differently, so a new stream is one that
   * began at least RESTART_MIN_S later (a stream seen live lasted longer than that). `detectorSaw`: the batch
   * detector compared its own live_times (the actor may not know the old one: a start from a per-room check).
   */
  private newBroadcast(liveTime: number, detectorSaw = false): void {
    if (!this.state.streaming || this.session) return;
    if (!detectorSaw && (liveTime <= 0 || this.liveTime <= 0)) return;
    // The stream this room already knows (danmaku or room info saw it first, while the detector still held the old
    // stream's live_time): not a new one, or a /stop of it would be undone (soak seed 1212 run 31).
    if (liveTime > 0 && this.liveTime > 0 && liveTime - this.liveTime < RESTART_MIN_S) return;
    if (liveTime > 0 && this.streamSeenAt >= liveTime * 1000 - 1000) return;
    this.outbox.log('info', 'the room went offline and live again between two checks (a new live_time): a new stream', { code: 'STREAM_RESTARTED', previous: this.liveTime, liveTime });
    this.setStreaming(false);
  }

  private setStreaming(live: boolean): void {
    if (!live) this.dropPendingStart();
    if (live !== this.state.streaming) {
      this.state.streaming = live;
      if (live) this.streamSeenAt = Date.now();
      // Going offline re-arms auto recording for the next stream (brec's autoRecordForThisSession).
      if (!live) this.state.autoRecordForThisSession = true;
      this.outbox.state({ streaming: live, autoRecordForThisSession: this.state.autoRecordForThisSession });
      this.outbox.event({ EventType: live ? 'StreamStarted' : 'StreamEnded', EventTimestamp: formatLocal(), EventData: this.snapshot() });
      if (!live) this.lingerDanmaku();
    }
    if (live) {
      if (this.lingerTimer) clearTimeout(this.lingerTimer);
      this.lingerTimer = null;
      // The stream first: a session that starts now holds the danmaku token back until it asked for its stream.
      this.maybeStart();
      this.ensureDanmaku();
    }
  }

  private maybeStart(): void {
    if (this.startPending && this.state.streaming && this.state.autoRecordForThisSession && !this.availability.reason) {
      this.startPending = null;
      // brec's /start records the stream live at that moment: one that began after it (the room went offline and
      // live again while no check answered) was not asked for. Same-second starts count as live then (seconds).
      if (this.liveTime === 0 || this.liveTime * 1000 <= this.startPendingAt) return this.startSession('manual');
      this.outbox.log('info', 'the start asked while the room could not be checked is dropped: this stream began after it (AutoRecord decides)', { code: 'START_PENDING_DROPPED', liveTime: this.liveTime });
    }
    if (!this.state.streaming || !this.state.autoRecordForThisSession || !this.settings.AutoRecord || this.availability.reason) return;
    const filtered = titleFiltered(this.settings.TitleFilterPatterns, this.state.title, (pattern, err) =>
      this.outbox.log('warn', `TitleFilterPatterns: ignoring invalid pattern ${pattern}: ${err.message}`));
    if (filtered) {
      if (!this.session) this.outbox.log('info', 'title matches TitleFilterPatterns; not recording automatically', { title: this.state.title });
      return;
    }
    this.startSession('auto');
  }

  /** A check found the room offline: a /start whose own check failed asked for nothing (brec starts only a live room). */
  private dropPendingStart(): void {
    if (this.startPending === 'waiting') this.outbox.log('info', 'the start asked while the room could not be checked is dropped: a check found the room offline', { code: 'START_PENDING_DROPPED' });
    this.startPending = null;
  }

  /** Tells the running session to end (its files close before it reports ended). */
  private stopSession(cause: LifecycleCause): void {
    const running = this.session;
    if (!running) return;
    this.lifecycle.maybe('stop', cause);
    running.session.stop();
  }

  private startSession(cause: LifecycleCause): void {
    if (this.session || this.disposed || !this.lifecycle.can('start')) return;
    this.lifecycle.to('start', cause);
    this.streamTried = false;
    const session = new RecordSession({
      settings: () => this.settings,
      api: () => this.client.withPriority('start'),
      outbox: this.outbox,
      stats: this.stats,
      workDir: this.init.workDir,
      snapshot: () => this.snapshot(),
      uid: () => this.state.uid,
      roomInfoJson: () => this.roomInfo,
      liveStartTime: () => this.liveTime,
      streamAttempted: () => {
        if (this.streamTried) return;
        this.streamTried = true;
        this.ensureDanmaku();
      },
      setRecording: (recording) => {
        this.state.recording = recording;
        this.outbox.state({ recording });
      },
      shouldContinue: async (priority: ApiPriority = 'start') => {
        await this.refreshSafely('poll', priority);
        return !this.disposed && this.state.streaming && this.state.autoRecordForThisSession;
      },
      timeline: this.danmakuFiles,
      // The one place a file may open: refused once a stop began (the session ends instead of opening it).
      fileOpening: (why) => {
        if (!this.lifecycle.can('opened')) throw new LiverecError('SESSION_ENDING', `room ${this.roomId}: no new file once the session is ending`);
        this.lifecycle.to('opened', why);
      },
      unavailable: (reason) => {
        this.availability.set(reason as UnavailableReason);
        this.syncPoll();
      },
      loginIgnored: (why) => this.outbox.post({ type: 'loginIgnored', roomId: this.outbox.room, why }),
    });
    const done = session.run().then(() => false, (err: unknown) => {
      this.outbox.error(err);
      return true;
    }).then((failed) => {
      if (this.session?.session === session) this.session = null;
      this.lifecycle.to('ended', failed ? 'error' : 'ended');
      this.ensureDanmaku();
      // A session that died of a bug while the room is still live is started again, like a failed start.
      if (failed && !this.disposed) {
        if (this.retryTimer) clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.maybeStart(), this.settings.TimingStreamRetry);
      }
    });
    this.session = { session, done };
  }

  /** After a stream ends the socket stays a while (PREPARING→LIVE restarts are common), then closes unless instant detect is on. */
  private lingerDanmaku(): void {
    if (this.settings.DanmakuInstantDetect || !this.danmaku) return;
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = setTimeout(() => {
      this.lingerTimer = null;
      if (!this.state.streaming && !this.settings.DanmakuInstantDetect) this.closeDanmaku();
    }, DANMAKU_LINGER_MS);
  }

  private closeDanmaku(): void {
    if (!this.danmaku) return;
    this.danmaku.stop();
    this.danmaku = null;
    if (this.state.danmakuConnected) {
      this.state.danmakuConnected = false;
      this.outbox.state({ danmakuConnected: false });
    }
  }

  /** An idle room holds no danmaku socket unless DanmakuInstantDetect asks for one. */
  private ensureDanmaku(): void {
    if (this.danmaku || this.disposed || !(this.infoFetched || this.factsFromDetector)) return;
    if (!this.state.streaming && !this.settings.DanmakuInstantDetect && !this.lingerTimer) return;
    if (this.session && !this.streamTried) return;
    const client = new DanmakuClient({ roomId: this.roomId, api: this.client.withPriority('danmaku'), options: clientOptionsFrom(this.settings, this.init.clientTestSwitches) });
    client.on('state', () => {
      const connected = client.connected;
      if (connected !== this.state.danmakuConnected) {
        this.state.danmakuConnected = connected;
        this.outbox.state({ danmakuConnected: connected });
      }
    });
    client.on('event', (ev: DanmakuEvent) => {
      this.danmakuFiles.offer(ev);
      offerPreviewDanmaku(this.roomId, ev);
      this.onDanmaku(ev);
    });
    client.on('warning', (err) => this.outbox.log('debug', `danmaku: ${err.message}`, { code: err.code }));
    client.on('loginIgnored', (why) => this.outbox.post({ type: 'loginIgnored', roomId: this.outbox.room, why }));
    this.danmaku = client;
    client.start();
  }

  private onDanmaku(ev: DanmakuEvent): void {
    switch (ev.type) {
      case 'LIVE':
        if (ev.liveTime) this.liveTime = ev.liveTime; // the new stream's (a pending start asked for an earlier one)
        this.setStreaming(true);
        break;
      case 'PREPARING':
        this.setStreaming(false);
        break;
      case 'ROOM_CHANGE': {
        const titleChanged = ev.title !== '' && ev.title !== this.state.title;
        Object.assign(this.state, { title: ev.title || this.state.title, areaNameChild: ev.areaName, areaNameParent: ev.parentAreaName });
        this.outbox.state({ title: this.state.title, areaNameChild: ev.areaName, areaNameParent: ev.parentAreaName });
        if (titleChanged && this.settings.CuttingByTitle) this.session?.session.split();
        break;
      }
      case 'CUT_OFF':
        // The service ended this broadcast (CUT_OFF / CUT_OFF_V2): the session ends; a new broadcast starts a new one.
        this.outbox.log('warn', `stream cut off by the service: ${ev.message}`, { code: 'STREAM_CUT_OFF', reason: ev.message });
        this.stopSession('cut-off');
        break;
      case 'PLAYURL_RELOAD':
        this.outbox.log('info', 'the service pushed a new playurl (PLAYURL_RELOAD); reconnecting the stream now');
        this.session?.session.reconnect();
        break;
      case 'PLAYURL_CHANGE':
        this.session?.session.originHint(ev.cmd);
        break;
      default:
        break;
    }
  }
}
