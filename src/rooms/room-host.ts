// Inside a room worker: hosts 1..K room actors, isolates their failures, and exposes the host API to the main thread.
import type { MessagePort } from 'node:worker_threads';
import { toPlainError } from '../errors.js';
import type { RoomSettings } from '../config/fields.js';
import type { RoomCommand, RoomHostApi, RoomInit, RoomMessage, RoomObservation } from './protocol.js';
import { RoomActor } from './room-actor.js';
import { StatsBatcher } from './stats-batcher.js';
import { findPreviewTap, setPreviewPost } from '../preview/tap.js';

export class RoomHost {
  private readonly actors = new Map<number, RoomActor>();
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
      addRoom: (init: RoomInit) => guard(() => {
        if (this.actors.has(init.roomId)) return; // idempotent: a room never gets a second actor
        const actor = new RoomActor(init, (m) => this.post(m), this.batcher, (id) => this.rekey(init.roomId, id));
        this.actors.set(init.roomId, actor);
        actor.begin();
      }),
      command: (roomId: number, command: RoomCommand) => guard(() => this.actor(roomId).command(command)),
      updateConfig: (roomId: number, settings: RoomSettings) => guard(() => this.actor(roomId).updateSettings(settings)),
      observe: (observations: RoomObservation[]) => guard(() => {
        for (const o of observations) this.actors.get(o.roomId)?.observe(o.status);
      }),
      preview: (roomId: number, on: boolean) => guard(() => findPreviewTap(roomId)?.setActive(on) ?? false),
      shutdown: () => guard(async () => {
        await Promise.all([...this.actors.values()].map((a) => a.dispose()));
        this.actors.clear();
      }),
    };
  }

  /**
   * Last words of a dying worker: tell the main thread why and close every open file synchronously, so
   * files end on a whole tag with final metadata and their FileClosed events are posted before the exit.
   */
  emergency(err: unknown): void {
    for (const [roomId, actor] of this.actors) {
      this.post({ type: 'error', roomId, error: toPlainError(err) });
      try {
        actor.emergencyClose();
      } catch {
        // Keep closing the others; the main thread finalises whatever is left open.
      }
    }
  }

  private rekey(oldId: number, newId: number): void {
    const actor = this.actors.get(oldId);
    if (!actor || oldId === newId) return;
    this.actors.delete(oldId);
    if (this.actors.has(newId)) {
      // A short id of a room this host already runs: never two actors of one room (the main thread drops the entry).
      void actor.dispose();
      return;
    }
    this.actors.set(newId, actor);
  }
}
