// The recorder: rooms from config, one actor each (via the supervisor), the main-thread mirror, and events.
import { resolve } from 'node:path';
import type { ResourceLimits } from 'node:worker_threads';
import type { ConfigStore, RoomConfigEntry } from '../config/store.js';
import type { RoomSettings } from '../config/fields.js';
import { withTimingFloors } from '../config/timing-floors.js';
import { LiverecError } from '../errors.js';
import { EventBus } from '../events/bus.js';
import type { RoomEventSnapshot } from '../events/types.js';
import type { EventSource } from '../events/source.js';
import { logger, roomLogger } from '../log/logger.js';
import { formatLocal } from '../time.js';
import { OpenJournal } from './open-journal.js';
import { finalizeOrphan, orphanFileClosed, recoverAfterCrash } from './crash-recovery.js';
import { removeStaleTempFiles } from './stale-temp.js';
import type { PreviewChunk, PreviewFormat, RoomMessage } from './protocol.js';
import { roomIdResolver, type ResolveRoomId } from './resolve-room-id.js';
import { Room, type RoomControl } from './room.js';
import { RoomChanges } from './room-changes.js';
import { Supervisor } from './supervisor.js';
import { RoomDetection } from '../detect/room-detection.js';
import type { ClientTestSwitches } from '../bilibili/client-options.js';
import { getProcessLimiter } from '../bilibili/api-limiter.js';
import { attachMarkers } from '../clips/markers.js';

export interface RecorderOptions {
  workDir: string;
  config: ConfigStore;
  bus?: EventBus;
  roomsPerWorker?: number;
  resourceLimits?: ResourceLimits;
  /** Shared state of the process-wide API limiter, handed to every worker. */
  limiter?: unknown;
  /** Enables the test-only crash commands (never set in production). */
  allowTestFaults?: boolean;
  /** Test-only: WBI signing or guest identity off for every API client of this run (never set in production). */
  clientTestSwitches?: ClientTestSwitches;
  /** Short id → real id before a room is added; default: the live API's room_init, bounded. */
  resolveRoomId?: ResolveRoomId;
  /** The login each room records with (src/accounts/); absent = the global Cookie for every room. */
  accounts?: RoomAccounts;
}

/** What the recorder asks of the account pool. */
export interface RoomAccounts {
  /** The Cookie header the room records with ('' = guest). */
  cookieFor(roomId: number, settings: RoomSettings): string;
  forgetRoom(roomId: number): void;
  /** The service answered the room's login as a guest (`why`): its account is checked now. */
  loginIgnored(roomId: number, why: string): void;
}

interface OpenFile {
  path: string;
  sessionId: string;
  openTime: string;
  source?: EventSource;
}

/** Something about a room worth telling a person (src/notify), besides the lifecycle events. */
export interface RoomNotice {
  roomId: number;
  kind: 'unavailable' | 'recording-error' | 'low-disk';
  /** The new unavailableReason (null = available again), or the message. */
  detail: string | null;
}

export class Recorder {
  readonly rooms: Room[] = [];
  /** Every change of a room (state, stats, listed, removed): periodic work looks only at rooms that changed. */
  readonly changes = new RoomChanges();
  /** The rooms by room id (messages and detection look rooms up thousands of times a round). */
  private readonly byRoomId = new Map<number, Room>();
  readonly bus: EventBus;
  readonly config: ConfigStore;
  readonly workDir: string;
  private readonly supervisor: Supervisor;
  /** Files each room has open, so a dead worker's files can still be closed and reported. */
  private readonly openFiles = new Map<number, Map<string, OpenFile>>();
  /** The running session of each room (from its SessionStarted/SessionEnded events). */
  private readonly sessions = new Map<number, string>();
  /** Files closed here for a dead worker: a FileClosed of theirs that was still on its way is not sent again. */
  private readonly closedForDeadWorker = new Set<string>();
  /** Listeners of room notices (src/notify): unavailableReason changes, recording errors, low disk. */
  readonly notices = new Set<(n: RoomNotice) => void>();
  /** Room host workers that died (each is restarted with backoff); read by the metrics. */
  workerRestarts = 0;
  /** Illegal room lifecycle transitions the room threads refused (room-lifecycle.ts); read by the metrics. */
  lifecycleAnomalies = 0;
  /** The open files and sessions on disk, so a start after a crash can close and report them. */
  private readonly journal: OpenJournal;
  /** Adds run one at a time, so two ids of one room can never both be inserted. */
  private adding: Promise<unknown> = Promise.resolve();
  private readonly resolveRoomId: ResolveRoomId;
  /** close() began: no actor starts from now on. */
  private closing = false;
  /** Batch live detection of every room (src/detect/). */
  readonly detection: RoomDetection;
  /** Commands to a room start its actor first: an idle room has none (see launch). */
  private readonly control: RoomControl = {
    command: (roomId, command) => {
      this.ensureActor(roomId);
      return this.supervisor.command(roomId, command);
    },
  };

  constructor(private readonly options: RecorderOptions) {
    this.bus = options.bus ?? new EventBus();
    this.config = options.config;
    this.workDir = options.workDir;
    this.journal = new OpenJournal(options.workDir);
    this.resolveRoomId = options.resolveRoomId ?? roomIdResolver(options.config, options.clientTestSwitches);
    this.supervisor = new Supervisor({
      roomsPerWorker: options.roomsPerWorker,
      resourceLimits: options.resourceLimits ?? { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 },
      limiter: options.limiter,
      onMessage: (m) => this.onMessage(m),
      onRoomsLost: (ids, err) => {
        this.workerRestarts++;
        ids.forEach((id) => this.onRoomLost(id, err));
      },
    });
    this.detection = new RoomDetection({
      workDir: options.workDir, config: options.config, rooms: () => this.rooms, room: (roomId) => this.byId(roomId),
      clientTestSwitches: options.clientTestSwitches,
      observe: (list) => {
        for (const o of list) {
          const room = this.byId(o.roomId);
          const s = o.status;
          // An idle room has no actor: the mirror takes the facts the batch answer carries.
          room?.apply({ state: { uid: s.uid, shortId: s.shortId, name: s.uname || room.state.name, title: s.title || room.state.title,
            areaNameParent: s.parentAreaName || room.state.areaNameParent, areaNameChild: s.areaName || room.state.areaNameChild } });
          if (s.liveStatus === 1) this.ensureActor(o.roomId);
        }
        this.supervisor.observe(list);
      },
      refresh: (roomId) => this.control.command(roomId, 'check'),
    });
  }

  /** Starts an actor for every configured room. */
  async start(): Promise<void> {
    recoverAfterCrash(this.journal, (e) => this.bus.emit(e), (fields, msg) => logger().warn(fields, msg));
    const removed = removeStaleTempFiles(this.workDir);
    if (removed.length > 0) logger().info({ removed }, 'removed temp files left by a previous run');
    for (const entry of this.config.rooms) this.list(new Room(entry, this.control, this.changes));
    await Promise.all(this.rooms.map((room) => this.launch(room)));
    this.detection.start();
  }

  /**
   * An idle room gets no actor (no thread state, socket or timer): the batch detector watches it from here, and its
   * actor starts when it goes live, when a command needs it, or when DanmakuInstantDetect asks for a socket.
   */
  private launch(room: Room, now = false): Promise<void> {
    if (!now && !this.config.resolveRoom(room.entry).DanmakuInstantDetect) return Promise.resolve();
    return this.supervisor.add({
      roomId: room.roomId,
      settings: this.settingsOf(room),
      workDir: this.workDir,
      allowTestFaults: this.options.allowTestFaults,
      clientTestSwitches: this.options.clientTestSwitches,
      batchDetect: true,
      uid: this.detection.uidOf(room.roomId, room.state),
    }).catch((err: unknown) => {
      // A start refused because the recorder stops is the stop's outcome, not a failure.
      if ((err as { code?: string }).code === 'RECORDER_STOPPING' || this.closing) return;
      roomLogger(room.roomId).error({ err }, 'room actor failed to start');
    });
  }

  /** Starts the room's actor unless it has one. */
  private ensureActor(roomId: number): void {
    const room = this.byId(roomId);
    if (room && !room.disposed && !this.closing && !this.supervisor.has(roomId)) void this.launch(room, true);
  }

  /** Numeric ids match room id or short id (first in list order); strings match objectId. */
  findRoom(id: number | string): Room | undefined {
    if (typeof id === 'string') return this.rooms.find((r) => r.objectId === id.toLowerCase());
    return this.rooms.find((r) => r.matches(id));
  }

  /**
   * Adds a room (saving config), or updates autoRecord of an existing one without saving, as brec does. Adds are
   * serialised and a short id is resolved to the real id first, so one room is never listed twice. Resolves once
   * the room is saved and listed; its thread starts in the background (an add never waits for a thread).
   * Throws ROOM_LIMIT beyond MaxRooms and CONFIG_DISK_FULL when config.json cannot be saved (nothing is added).
   */
  addRoom(roomId: number, autoRecord: boolean): Promise<Room> {
    const run = this.adding.then(() => this.admit(roomId, autoRecord));
    this.adding = run.catch(() => undefined);
    return run;
  }

  private async admit(id: number, autoRecord: boolean): Promise<Room> {
    let roomId = id;
    let existing = this.findRoom(roomId);
    if (!existing) {
      roomId = (await this.resolveRoomId(id)) ?? id;
      existing = this.findRoom(roomId);
    }
    if (existing) {
      if (existing.entry.autoRecord !== autoRecord) this.setAutoRecord(existing, autoRecord, false);
      return existing;
    }
    const max = this.config.effective('MaxRooms');
    if (max > 0 && this.rooms.length >= max) {
      throw new LiverecError('ROOM_LIMIT', `MaxRooms is ${max}: remove a room or raise MaxRooms before adding room ${id}`);
    }
    const room = this.list(new Room(this.config.commit(() => this.config.addRoom(roomId, autoRecord)), this.control, this.changes));
    void this.launch(room);
    this.detection.added(room.roomId);
    return room;
  }

  /** Cluster: runs a room whose settings are kept elsewhere (the database), so nothing is saved here. */
  async adoptRoom(entry: RoomConfigEntry): Promise<Room> {
    this.config.rooms.push(entry);
    const room = this.list(new Room(entry, this.control, this.changes));
    await this.launch(room);
    this.detection.added(room.roomId);
    return room;
  }

  /** Removes the room from config (saved first: a failed save changes nothing) and ends its actor and stream. */
  async removeRoom(room: Room): Promise<void> {
    const index = this.rooms.indexOf(room);
    // A second removal of the same room must not splice(-1) away the last room's mirror.
    if (index < 0) return;
    this.config.commit(() => this.config.removeRoom(room.entry));
    room.disposed = true;
    this.unlist(room, index);
    await this.supervisor.remove(room.roomId);
  }

  /** A room configured by a short id turned out to be a room already listed: it is dropped, actor and all. */
  private async dropDuplicate(room: Room, realRoomId: number): Promise<void> {
    roomLogger(room.roomId).warn({ realRoomId }, 'this id is a short id of a room already listed; removing the duplicate');
    const index = this.rooms.indexOf(room);
    if (index < 0) return;
    room.disposed = true;
    this.unlist(room, index);
    this.config.removeRoom(room.entry);
    this.saveQuietly();
    await this.supervisor.removeDuplicate(room.roomId, realRoomId);
  }

  private list(room: Room): Room {
    this.rooms.push(room);
    this.byRoomId.set(room.roomId, room);
    this.changes.emit(room, { kind: 'added' });
    return room;
  }

  private unlist(room: Room, index: number): void {
    this.rooms.splice(index, 1);
    if (this.byRoomId.get(room.roomId) === room) this.byRoomId.delete(room.roomId);
    // Detection forgets the room entirely: a re-add starts from a clean record (nothing orphaned by the remove).
    this.detection.removed(room.roomId);
    this.options.accounts?.forgetRoom(room.roomId);
    this.changes.emit(room, { kind: 'removed' });
  }

  /** Saves where no caller can be told (background renames, shutdown): a failure is logged, the next save retries. */
  private saveQuietly(): void {
    try {
      this.config.save();
    } catch (err) {
      logger().error({ err }, 'config.json could not be saved; it will be saved with the next change');
    }
  }

  setAutoRecord(room: Room, autoRecord: boolean, save = true): void {
    room.entry.autoRecord = autoRecord;
    if (save) this.config.save();
    this.pushSettings(room);
  }

  /** Re-sends resolved settings to one room (room config changed) or all rooms (global config changed). */
  pushSettings(room?: Room): void {
    if (!room) getProcessLimiter().setBudgetPerMinute(this.config.effective('ApiBudgetPerMinute'));
    // A room's settings change may have set its autoRecord (REST, GraphQL): the event stream announces the room.
    room?.entryChanged(['autoRecord']);
    for (const r of room ? [room] : this.rooms) {
      const settings: RoomSettings = this.settingsOf(r);
      if (settings.DanmakuInstantDetect) this.ensureActor(r.roomId);
      this.supervisor.updateConfig(r.roomId, settings).catch(() => undefined);
    }
  }

  /** The room's resolved settings as the actor uses them: timings raised to their floors (logged). */
  private settingsOf(room: Room): RoomSettings {
    const { settings, raised } = withTimingFloors(this.config.resolveRoom(room.entry));
    if (raised.length > 0) roomLogger(room.roomId).warn({ raised }, 'timing settings below their minimum are used as the minimum');
    if (this.options.accounts) settings.Cookie = this.options.accounts.cookieFor(room.roomId, settings);
    return settings;
  }

  /**
   * Test builds only: makes the room's worker throw (`testThrow`), exit (`testCrash`), run out of memory (`testOom`),
   * or its next stop hang (`testHangStop`).
   */
  injectTestFault(room: Room, kind: 'testThrow' | 'testCrash' | 'testOom' | 'testHangStop'): Promise<void> {
    if (!this.options.allowTestFaults) return Promise.reject(new LiverecError('TEST_FAULTS_DISABLED', 'test faults are disabled'));
    return this.supervisor.command(room.roomId, kind).catch((err: unknown) => {
      // The fault kills the worker, sometimes before the command's answer is posted: that death is its outcome.
      if (err instanceof LiverecError && (err.code === 'ROOM_WORKER_CRASHED' || err.code === 'ROOM_WORKER_EXITED')) return;
      throw err;
    });
  }

  /** Absolute paths of the files rooms have open now, journaled ones included (retention never touches them). */
  /** Where the rooms' live-preview chunks go (src/preview/'s hub); none = they are dropped. */
  previewSink: ((roomId: number, chunk: PreviewChunk) => void) | null = null;

  /** Turns a room's live preview on or off in its thread; the format it writes now, null when none the preview reads. */
  preview(roomId: number, on: boolean): Promise<PreviewFormat | null> {
    return this.supervisor.preview(roomId, on).catch(() => null);
  }

  openPaths(): Set<string> {
    const out = new Set<string>();
    for (const files of this.openFiles.values()) for (const f of files.values()) out.add(resolve(f.path));
    for (const e of this.journal.entries().files) out.add(resolve(e.path));
    return out;
  }

  get workerCount(): number {
    return this.supervisor.workerCount;
  }

  /** Graceful stop: every actor closes its files with final metadata; then the config is saved. */
  async close(graceMs?: number): Promise<void> {
    this.closing = true;
    this.detection.stop();
    await this.supervisor.shutdown(graceMs);
    // Files a thread could not close in time keep their journal entries; the scan is needed only after a crash.
    this.journal.cleanStop();
    this.saveQuietly();
  }

  private byId(roomId: number): Room | undefined {
    return this.byRoomId.get(roomId);
  }

  private onMessage(m: RoomMessage): void {
    if (m.type === 'stats') {
      for (const e of m.entries) this.byId(e.roomId)?.apply(e);
      return;
    }
    const room = this.byId(m.roomId);
    switch (m.type) {
      case 'state':
        if (room && 'unavailableReason' in m.state && (m.state.unavailableReason ?? null) !== (room.state.unavailableReason ?? null)) {
          this.notice({ roomId: m.roomId, kind: 'unavailable', detail: m.state.unavailableReason ?? null });
        }
        room?.apply({ state: m.state });
        if (m.state.uid) this.detection.learned(m.roomId, m.state.uid);
        break;
      case 'event':
        if (m.event.EventType === 'SessionStarted') {
          this.sessions.set(m.roomId, m.event.EventData.SessionId);
          this.journal.sessionStarted(m.roomId, m.event.EventData.SessionId, m.event.EventData);
        }
        if (m.event.EventType === 'SessionEnded') {
          this.sessions.delete(m.roomId);
          this.journal.sessionEnded(m.event.EventData.SessionId);
        }
        if (m.event.EventType === 'FileClosed' && m.path !== undefined) {
          this.openFiles.get(m.roomId)?.delete(m.path);
          if (this.closedForDeadWorker.delete(m.path)) break;
          attachMarkers(m.event.EventData, m.path);
          this.bus.emit(m.event);
          // Published first, then recorded as closed: a kill in between can only repeat it, never lose it.
          this.journal.fileClosed(m.path);
          break;
        }
        this.bus.emit(m.event);
        break;
      case 'file': {
        const files = this.openFiles.get(m.roomId) ?? new Map<string, OpenFile>();
        // The journal entry was written by the room thread before the file existed; this is the in-memory mirror.
        if (m.action === 'opened') files.set(m.path, { path: m.path, sessionId: m.sessionId, openTime: m.openTime, source: m.source });
        else files.delete(m.path);
        this.openFiles.set(m.roomId, files);
        break;
      }
      case 'roomId':
        if (room && this.rooms.some((r) => r !== room && r.roomId === m.realRoomId)) {
          void this.dropDuplicate(room, m.realRoomId);
        } else if (room) {
          this.supervisor.rename(m.roomId, m.realRoomId);
          if (this.byRoomId.get(m.roomId) === room) this.byRoomId.delete(m.roomId);
          room.entry.roomId = m.realRoomId;
          this.byRoomId.set(m.realRoomId, room);
          room.entryChanged(['roomId']);
          this.openFiles.set(m.realRoomId, this.openFiles.get(m.roomId) ?? new Map());
          this.openFiles.delete(m.roomId);
          // The login chosen under the short id is chosen again under the real one: the old id must not keep it.
          this.options.accounts?.forgetRoom(m.roomId);
          this.saveQuietly();
        }
        break;
      case 'preview':
        this.previewSink?.(m.roomId, m.chunk);
        break;
      case 'log':
        roomLogger(m.roomId)[m.level](m.fields ?? {}, m.msg);
        if ((m.fields as { code?: unknown } | undefined)?.code === 'LIFECYCLE_ANOMALY') this.lifecycleAnomalies++;
        if ((m.fields as { code?: unknown } | undefined)?.code === 'DISK_SPACE_LOW') this.notice({ roomId: m.roomId, kind: 'low-disk', detail: m.msg });
        break;
      case 'loginIgnored':
        this.options.accounts?.loginIgnored(m.roomId, m.why);
        break;
      case 'error':
        roomLogger(m.roomId).error({ err: m.error }, m.error.message);
        this.notice({ roomId: m.roomId, kind: 'recording-error', detail: m.error.message });
        break;
    }
  }

  /** A worker died: close its files validly, end its session for event consumers, reset the mirror. */
  private onRoomLost(roomId: number, error: LiverecError): void {
    const log = roomLogger(roomId);
    log.error({ err: error, code: error.code }, 'room worker died; restarting with backoff');
    const room = this.rooms.find((r) => r.roomId === roomId);
    const files = this.openFiles.get(roomId);
    // The journal also names files whose "opened" message the dead thread never got to send.
    const all = new Map<string, OpenFile>();
    for (const e of this.journal.entries().files) if (e.roomId === roomId) all.set(e.path, e);
    for (const f of files?.values() ?? []) all.set(f.path, f);
    for (const file of all.values()) {
      const done = finalizeOrphan(file.path);
      if (done) {
        log.warn({ path: file.path, truncatedBytes: done.truncatedBytes }, 'closed the file of a dead worker');
        this.closedForDeadWorker.add(file.path);
        if (room) this.bus.emit(orphanFileClosed(this.workDir, file.path, done, { ...file, snapshot: this.snapshot(room) }));
      }
      this.journal.fileClosed(file.path);
    }
    files?.clear();
    if (!room) return;
    room.apply({ state: { recording: false, danmakuConnected: false, recordingCodec: '', recordingSource: null, sessionGaps: [] } });
    room.resetStats();
    const sessionId = this.sessions.get(roomId);
    this.sessions.delete(roomId);
    if (sessionId) this.journal.sessionEnded(sessionId);
    if (sessionId) this.bus.emit({ EventType: 'SessionEnded', EventTimestamp: formatLocal(), EventData: { ...this.snapshot(room), SessionId: sessionId } });
  }

  private notice(n: RoomNotice): void {
    for (const l of this.notices) {
      try {
        l(n);
      } catch {
        // A notifier owns its errors.
      }
    }
  }

  /** The event snapshot of a room this recorder has, or null. */
  roomSnapshot(roomId: number): RoomEventSnapshot | null {
    const room = this.rooms.find((r) => r.roomId === roomId);
    return room ? this.snapshot(room) : null;
  }

  private snapshot(room: Room): RoomEventSnapshot {
    const s = room.state;
    return {
      RoomId: room.roomId, ShortId: s.shortId, Name: s.name, Title: s.title, AreaNameParent: s.areaNameParent,
      AreaNameChild: s.areaNameChild, Recording: s.recording, Streaming: s.streaming, DanmakuConnected: s.danmakuConnected,
    };
  }
}
