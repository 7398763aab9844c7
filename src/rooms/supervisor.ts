// Places room actors on host workers (see placement.ts: default spread, or K per worker) and routes commands to them.
import type { ResourceLimits } from 'node:worker_threads';
import { LiverecError } from '../errors.js';
import type { RoomSettings } from '../config/fields.js';
import { HostSlot } from './host-slot.js';
import { defaultMaxHosts, pickHost } from './placement.js';
import type { PreviewFormat, RoomCommand, RoomInit, RoomMessage, RoomObservation } from './protocol.js';
import type { RoomControl } from './room.js';

export interface SupervisorOptions {
  /** Room actors per worker thread (1 = every room in its own thread); unset = the default placement. */
  roomsPerWorker?: number;
  /** Most threads of the default placement (default: one per core); ignored with roomsPerWorker. */
  maxWorkers?: number;
  resourceLimits?: ResourceLimits;
  limiter?: unknown;
  onMessage: (message: RoomMessage) => void;
  /** A host died: its rooms lost their actors (restart follows with backoff). */
  onRoomsLost: (roomIds: number[], error: LiverecError) => void;
}

/** How long a room removed from a shared host may take to close its files before the request moves on. */
const DISPOSE_WAIT_MS = 10_000;

export class Supervisor implements RoomControl {
  private readonly slots: HostSlot[] = [];
  private readonly placement = new Map<number, HostSlot>();
  private nextId = 1;
  /** shutdown() began: no actor is placed from now on (a start still on its way would outlive the stop). */
  private closed = false;

  constructor(private readonly options: SupervisorOptions) {}

  /** Starts an actor for the room on the host placement.ts picks (a new one, or the least loaded). */
  async add(init: RoomInit): Promise<void> {
    if (this.closed) throw new LiverecError('RECORDER_STOPPING', `room ${init.roomId}: the recorder is stopping`);
    let slot = pickHost(this.slots, this.options.roomsPerWorker, this.options.maxWorkers ?? defaultMaxHosts());
    const fresh = !slot;
    if (!slot) {
      const created: HostSlot = new HostSlot({
        id: this.nextId++,
        resourceLimits: this.options.resourceLimits,
        limiter: this.options.limiter,
        onMessage: (m) => this.deliver(created, m),
        onDeath: (s, err) => this.options.onRoomsLost([...s.rooms.keys()], err),
      });
      slot = created;
      this.slots.push(slot);
    }
    slot.rooms.set(init.roomId, init);
    this.placement.set(init.roomId, slot);
    if (fresh) await slot.spawn();
    else await slot.ensureAdded(init.roomId);
  }

  /**
   * Passes on what a host says. State and stats of a room placed on another host are a dropped duplicate's (see
   * removeDuplicate) and would overwrite the real room's mirror; its events and files still count.
   */
  private deliver(slot: HostSlot, m: RoomMessage): void {
    if (m.type === 'stats') {
      const entries = m.entries.filter((e) => this.placement.get(e.roomId) === slot);
      if (entries.length) this.options.onMessage(entries.length === m.entries.length ? m : { ...m, entries });
      return;
    }
    const placed = this.placement.get(m.roomId);
    if (m.type === 'state' && placed && placed !== slot) return;
    this.options.onMessage(m);
  }

  /** Disposes the room's actor; a host left empty is shut down. */
  async remove(roomId: number): Promise<void> {
    const slot = this.placement.get(roomId);
    if (!slot) return;
    this.placement.delete(roomId);
    await this.retire(slot, roomId, roomId);
  }

  /**
   * The room `oldId` learned it is `realId`, a room already placed: its actor (known to its host as `realId` by
   * now) is disposed, unless it shares the real room's host, which disposed it itself (room-host rekey).
   */
  async removeDuplicate(oldId: number, realId: number): Promise<void> {
    const slot = this.placement.get(oldId);
    if (!slot) return;
    this.placement.delete(oldId);
    if (this.placement.get(realId) === slot) slot.forget(oldId);
    else await this.retire(slot, oldId, realId);
  }

  /**
   * Ends one actor for good, bounded: a host left empty is shut down (graceful, then terminated), which ends its
   * streams even when an actor's dispose hangs; on a shared host the dispose gets DISPOSE_WAIT_MS.
   */
  private async retire(slot: HostSlot, placedId: number, hostId: number): Promise<void> {
    slot.forget(placedId);
    if (slot.rooms.size === 0) {
      this.slots.splice(this.slots.indexOf(slot), 1);
      await slot.close();
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      slot.call((api) => api.command(hostId, 'dispose')).catch(() => undefined),
      new Promise<void>((resolve) => { timer = setTimeout(resolve, DISPOSE_WAIT_MS); }),
    ]);
    clearTimeout(timer);
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

  /** Turns a room's live preview on or off in its thread; the format it writes, null when no actor or no file it reads. */
  preview(roomId: number, on: boolean): Promise<PreviewFormat | null> {
    const slot = this.placement.get(roomId);
    if (!slot) return Promise.resolve(null);
    return slot.call((api) => api.preview(roomId, on));
  }

  updateConfig(roomId: number, settings: RoomSettings): Promise<void> {
    const slot = this.placement.get(roomId);
    const init = slot?.rooms.get(roomId);
    if (!slot || !init) return Promise.resolve();
    init.settings = settings; // a restarted host gets the current settings
    return slot.call((api) => api.updateConfig(roomId, settings));
  }

  /** Whether the room has an actor placed on a host. */
  has(roomId: number): boolean {
    return this.placement.has(roomId);
  }

  /** Hands batch detector results to the hosts of their rooms, one message per host. */
  observe(observations: RoomObservation[]): void {
    const bySlot = new Map<HostSlot, RoomObservation[]>();
    for (const o of observations) {
      const slot = this.placement.get(o.roomId);
      if (!slot) continue;
      const list = bySlot.get(slot) ?? [];
      list.push(o);
      bySlot.set(slot, list);
    }
    for (const [slot, list] of bySlot) slot.call((api) => api.observe(list)).catch(() => undefined);
  }

  get workerCount(): number {
    return this.slots.filter((s) => s.alive).length;
  }

  /** Graceful stop of every host, in parallel. */
  async shutdown(graceMs?: number): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    this.placement.clear();
    await Promise.all(slots.map((s) => s.close(graceMs)));
  }
}
