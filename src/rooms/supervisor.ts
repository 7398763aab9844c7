// Places room actors on host workers (see placement.ts: default spread, or K per worker) and routes commands to them.
import type { ResourceLimits } from 'node:worker_threads';
import { LiverecError } from '../errors.js';
import type { RoomSettings } from '../config/fields.js';
import { HostSlot } from './host-slot.js';
import { defaultMaxHosts, pickHost } from './placement.js';
import type { RoomCommand, RoomInit, RoomMessage } from './protocol.js';
import type { RoomControl } from './room.js';

export interface SupervisorOptions {
  /** Room actors per worker thread (1 = every room in its own thread); unset = the default placement. */
  roomsPerWorker?: number;
  /** Threads of the default placement (default 2 x cores); ignored with roomsPerWorker. */
  maxWorkers?: number;
  resourceLimits?: ResourceLimits;
  limiter?: unknown;
  onMessage: (message: RoomMessage) => void;
  /** A host died: its rooms lost their actors (restart follows with backoff). */
  onRoomsLost: (roomIds: number[], error: LiverecError) => void;
}

export class Supervisor implements RoomControl {
  private readonly slots: HostSlot[] = [];
  private readonly placement = new Map<number, HostSlot>();
  private nextId = 1;

  constructor(private readonly options: SupervisorOptions) {}

  /** Starts an actor for the room on the host placement.ts picks (a new one, or the least loaded). */
  async add(init: RoomInit): Promise<void> {
    let slot = pickHost(this.slots, this.options.roomsPerWorker, this.options.maxWorkers ?? defaultMaxHosts());
    const fresh = !slot;
    if (!slot) {
      slot = new HostSlot({
        id: this.nextId++,
        resourceLimits: this.options.resourceLimits,
        limiter: this.options.limiter,
        onMessage: this.options.onMessage,
        onDeath: (s, err) => this.options.onRoomsLost([...s.rooms.keys()], err),
      });
      this.slots.push(slot);
    }
    slot.rooms.set(init.roomId, init);
    this.placement.set(init.roomId, slot);
    if (fresh) await slot.spawn();
    else await slot.ensureAdded(init.roomId);
  }

  /** Disposes the room's actor; a host left empty is shut down. */
  async remove(roomId: number): Promise<void> {
    const slot = this.placement.get(roomId);
    if (!slot) return;
    this.placement.delete(roomId);
    await slot.call((api) => api.command(roomId, 'dispose')).catch(() => undefined);
    slot.forget(roomId);
    if (slot.rooms.size === 0) {
      this.slots.splice(this.slots.indexOf(slot), 1);
      await slot.close();
    }
  }

  /** A room learned its real id: re-key its placement. */
  rename(oldId: number, newId: number): void {
    const slot = this.placement.get(oldId);
    if (!slot) return;
    slot.rekey(oldId, newId);
    this.placement.delete(oldId);
    this.placement.set(newId, slot);
  }

  command(roomId: number, command: RoomCommand): Promise<void> {
    const slot = this.placement.get(roomId);
    if (!slot) return Promise.reject(new LiverecError('ROOM_NOT_RUNNING', `room ${roomId} has no actor`));
    return slot.call((api) => api.command(roomId, command));
  }

  updateConfig(roomId: number, settings: RoomSettings): Promise<void> {
    const slot = this.placement.get(roomId);
    const init = slot?.rooms.get(roomId);
    if (!slot || !init) return Promise.resolve();
    init.settings = settings; // a restarted host gets the current settings
    return slot.call((api) => api.updateConfig(roomId, settings));
  }

  get workerCount(): number {
    return this.slots.filter((s) => s.alive).length;
  }

  /** Graceful stop of every host, in parallel. */
  async shutdown(graceMs?: number): Promise<void> {
    const slots = this.slots.splice(0);
    this.placement.clear();
    await Promise.all(slots.map((s) => s.close(graceMs)));
  }
}
