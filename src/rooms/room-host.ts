// Inside a room worker: hosts 1..K room actors, isolates their failures, and exposes the host API to the main thread.
import type { MessagePort } from 'node:worker_threads';
import { toPlainError } from '../errors.js';
import type { RoomSettings } from '../config/fields.js';
import type { RoomCommand, RoomHostApi, RoomInit, RoomMessage, RoomObservation } from './protocol.js';
import { RoomActor } from './room-actor.js';
import { StatsBatcher } from './stats-batcher.js';
import { dropPreviewTap, findPreviewTap, setPreviewPost } from '../preview/tap.js';

export class RoomHost {
  private readonly actors = new Map<number, RoomActor>();
  /**
   * Actors being removed: out of `actors` at once (a re-add gets a new actor, never the disposed one), kept here until
   * their files are closed so a re-add waits for them and a dying worker still closes their files.
   */
  private readonly leaving = new Map<number, { actor: RoomActor; done: Promise<void> }>();
  /** shutdown() began: no actor is added from now on (an add still on its way would open files after the stop). */
  private closing = false;
  private readonly batcher: StatsBatcher;

  constructor(private readonly port: MessagePort) {
    this.batcher = new StatsBatcher((m) => this.post(m));
    setPreviewPost((m, transfer) => this.port.postMessage(m, transfer));
  }

  post(message: RoomMessage): void {
    this.port.postMessage(message);
  }

  private actor(roomId: number): RoomActor {
    const actor = this.actors.get(roomId);
    // Thrown as a plain object: comlink keeps its fields, so the main side can rebuild the coded error.
    if (!actor) throw toPlainError(Object.assign(new Error(`room ${roomId} is not hosted here`), { code: 'ROOM_NOT_RUNNING' }));
    return actor;
  }

  /** The comlink-exposed API; every error crosses the thread as a plain coded object. */
  api(): RoomHostApi {
    const guard = async <T>(fn: () => T | Promise<T>): Promise<T> => {
      try {
        return await fn();
      } catch (err) {
        throw toPlainError(err);
      }
    };
    return {
      addRoom: (init: RoomInit) => guard(() => this.add(init)),
      command: (roomId: number, command: RoomCommand) => guard(async () => {
        await this.adding.get(roomId); // a command right behind a re-add reaches the new actor
        return command === 'dispose' ? this.remove(roomId) : this.actor(roomId).command(command);
      }),
      updateConfig: (roomId: number, settings: RoomSettings) => guard(() => this.actor(roomId).updateSettings(settings)),
      observe: (observations: RoomObservation[]) => guard(() => {
        for (const o of observations) this.actors.get(o.roomId)?.observe(o.status, o.newStream === true);
      }),
      preview: (roomId: number, on: boolean) => guard(() => findPreviewTap(roomId)?.setActive(on) ?? null),
      shutdown: (deadlineMs?: number) => guard(async () => {
        this.closing = true;
        const stopping = [...this.actors].map(([id, a]) => ({ id, actor: a, done: a.dispose('shutdown') }))
          .concat([...this.leaving].map(([id, l]) => ({ id, actor: l.actor, done: l.done })));
        const ended = new Set<RoomActor>();
        for (const s of stopping) void s.done.then(() => ended.add(s.actor), () => ended.add(s.actor));
        const all = Promise.all(stopping.map((s) => s.done.catch(() => undefined)));
        let timer: NodeJS.Timeout | undefined;
        const overdue = deadlineMs === undefined ? new Promise<never>(() => undefined) : new Promise<true>((r) => (timer = setTimeout(() => r(true), deadlineMs)));
        const late = await Promise.race([all.then(() => false), overdue]);
        clearTimeout(timer);
        if (late) this.closeOverdue(stopping.filter((s) => !ended.has(s.actor)));
        this.actors.clear();
      }),
    };
  }

  /**
   * Last words of a dying worker: tell the main thread why and close every open file synchronously, so
   * files end on a whole tag with final metadata and their FileClosed events are posted before the exit.
   */
  emergency(err: unknown): void {
    const all = [...this.actors].concat([...this.leaving].map(([id, l]) => [id, l.actor] as [number, RoomActor]));
    for (const [roomId, actor] of all) {
      this.post({ type: 'error', roomId, error: toPlainError(err) });
      try {
        actor.emergencyClose();
      } catch {
        // Keep closing the others; the main thread finalises whatever is left open.
      }
    }
  }

  /** A stop past its deadline (something it waits on hangs): its files are closed where they stand, each with FileClosed. */
  private closeOverdue(late: { id: number; actor: RoomActor }[]): void {
    for (const { id, actor } of late) {
      this.post({ type: 'log', roomId: id, level: 'warn', msg: 'the stop outlasted its grace; the open file is closed where it stands', fields: { code: 'STOP_OVERDUE' } });
      try {
        actor.emergencyClose();
      } catch {
        // Keep closing the others; the next start's crash recovery finalises whatever is left open.
      }
    }
  }

  /** Adds waiting for the room's previous actor to close its files (a re-add right after a remove). */
  private readonly adding = new Map<number, Promise<void>>();

  private add(init: RoomInit): Promise<void> {
    const create = (): void => {
      if (this.closing) throw Object.assign(new Error(`room ${init.roomId}: the host is shutting down`), { code: 'ROOM_HOST_CLOSING' });
      if (this.actors.has(init.roomId)) return; // idempotent: a room never gets a second actor
      const actor = new RoomActor(init, (m) => this.post(m), this.batcher, (id) => this.rekey(init.roomId, id));
      this.actors.set(init.roomId, actor);
      actor.begin();
    };
    const previous = this.leaving.get(init.roomId);
    if (!previous) return Promise.resolve(create());
    // The new actor's files never overlap the old one's: it begins once the old one has closed them.
    const run = previous.done.catch(() => undefined).then(create).finally(() => {
      if (this.adding.get(init.roomId) === run) this.adding.delete(init.roomId);
    });
    this.adding.set(init.roomId, run);
    return run;
  }

  /** The room is removed: its actor leaves the map now and is disposed (files closed) before this resolves. */
  private remove(roomId: number): Promise<void> {
    const actor = this.actors.get(roomId);
    if (!actor) return this.leaving.get(roomId)?.done ?? Promise.resolve();
    this.actors.delete(roomId);
    const done = actor.dispose('remove').finally(() => {
      dropPreviewTap(roomId);
      if (this.leaving.get(roomId)?.actor === actor) this.leaving.delete(roomId);
    });
    this.leaving.set(roomId, { actor, done });
    return done;
  }

  private rekey(oldId: number, newId: number): void {
    const actor = this.actors.get(oldId);
    if (!actor || oldId === newId) return;
    this.actors.delete(oldId);
    if (this.actors.has(newId)) {
      // A short id of a room this host already runs: never two actors of one room (the main thread drops the entry).
      void actor.dispose('remove');
      return;
    }
    this.actors.set(newId, actor);
  }
}
