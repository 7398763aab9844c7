// One room host worker as the supervisor sees it: spawn, comlink remote, pending calls, restart backoff.
import { MessageChannel, Worker, type ResourceLimits } from 'node:worker_threads';
import { wrap, releaseProxy, type Remote } from 'comlink';
import { LiverecError, type PlainError } from '../errors.js';
import { workerPath } from '../paths.js';
import { nodeEndpoint } from './node-endpoint.js';
import { listenToWorkerPort } from './worker-port.js';
import type { RoomHostApi, RoomHostData, RoomInit, RoomMessage } from './protocol.js';

/** What the worker's own close of overdue files has before the thread is ended. */
const OVERDUE_MARGIN_MS = 750;

export interface HostSlotOptions {
  id: number;
  resourceLimits?: ResourceLimits;
  limiter?: unknown;
  onMessage: (message: RoomMessage) => void;
  /** Called once per unexpected death, before any restart. */
  onDeath: (slot: HostSlot, error: LiverecError) => void;
}

/** Rebuilds a coded error from what crossed the thread (plain objects from our workers, Errors from comlink). */
function rebuildError(err: unknown): LiverecError {
  if (err instanceof LiverecError) return err;
  if (err && typeof err === 'object' && 'code' in err && 'message' in err) return LiverecError.fromPlain(err as PlainError);
  return new LiverecError('ROOM_WORKER_ERROR', err instanceof Error ? err.message : String(err), { cause: err });
}

export class HostSlot {
  readonly rooms = new Map<number, RoomInit>();
  /** Rooms the current worker incarnation was given (a room placed while the worker spawns is added once). */
  private readonly added = new Set<number>();
  private worker: Worker | null = null;
  private api: Remote<RoomHostApi> | null = null;
  private readonly pending = new Set<(err: Error) => void>();
  private closing = false;
  private startedAt = 0;
  private crashes = 0;
  private restartTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: HostSlotOptions) {}

  get id(): number {
    return this.options.id;
  }

  get alive(): boolean {
    return this.api !== null;
  }

  /** Starts the worker and (re-)adds every room placed on it. */
  async spawn(): Promise<void> {
    const channel = new MessageChannel();
    const data: RoomHostData & { port: unknown } = { hostId: this.id, limiter: this.options.limiter, port: channel.port2 };
    const worker = new Worker(workerPath('room'), {
      workerData: data,
      transferList: [channel.port2],
      resourceLimits: this.options.resourceLimits,
      name: `liverec-room-host-${this.id}`,
    });
    const drain = listenToWorkerPort<RoomMessage>(channel.port1, (m) => this.options.onMessage(m));
    // 'exit' always follows 'error'. The death is handled there, once the thread has stopped and every message
    // it posted (its last FileClosed events) has been handed over: handling it earlier would race those messages.
    let crash: Error | null = null;
    worker.on('error', (err) => {
      crash ??= err;
    });
    worker.on('exit', (code) => {
      drain();
      this.died(worker, crash
        ? new LiverecError('ROOM_WORKER_CRASHED', `room worker crashed: ${crash.message}`, { cause: crash })
        : new LiverecError(code === 0 ? 'ROOM_WORKER_EXITED' : 'ROOM_WORKER_CRASHED', `room worker exited with code ${code}`));
    });
    this.worker = worker;
    this.api = wrap<RoomHostApi>(nodeEndpoint(worker));
    this.startedAt = Date.now();
    this.added.clear();
    for (const init of [...this.rooms.values()]) await this.ensureAdded(init.roomId);
  }

  /** Gives the room to the running worker unless this incarnation already has it. */
  ensureAdded(roomId: number): Promise<void> {
    const init = this.rooms.get(roomId);
    if (!init || this.added.has(roomId)) return Promise.resolve();
    this.added.add(roomId);
    return this.call((api) => api.addRoom(init)).catch((err: unknown) => {
      this.added.delete(roomId);
      throw err;
    });
  }

  /** The room left this host (disposed or renamed). */
  forget(roomId: number): void {
    this.rooms.delete(roomId);
    this.added.delete(roomId);
  }

  /** The room's id changed inside the worker; keep the bookkeeping in step. */
  rekey(oldId: number, newId: number): void {
    const init = this.rooms.get(oldId);
    if (!init) return;
    this.rooms.delete(oldId);
    this.rooms.set(newId, { ...init, roomId: newId });
    if (this.added.delete(oldId)) this.added.add(newId);
  }

  /** Runs a command on the worker; rejects with a coded error if the worker dies first. */
  call<T>(fn: (api: Remote<RoomHostApi>) => Promise<T>): Promise<T> {
    const api = this.api;
    if (!api) return Promise.reject(new LiverecError('ROOM_WORKER_UNAVAILABLE', 'the room worker is restarting'));
    return new Promise<T>((resolve, reject) => {
      const fail = (err: Error): void => reject(err);
      this.pending.add(fail);
      fn(api).then(resolve, (err: unknown) => reject(rebuildError(err))).finally(() => this.pending.delete(fail));
    });
  }

  private died(worker: Worker, error: LiverecError): void {
    if (this.worker !== worker) return; // a worker replaced or closed meanwhile is not a death
    this.worker = null;
    this.api?.[releaseProxy]();
    this.api = null;
    // comlink leaves calls to a dead worker pending forever (stack.md §2): reject them here.
    for (const reject of this.pending) reject(error);
    this.pending.clear();
    if (this.closing) return;
    this.options.onDeath(this, error);
    if (Date.now() - this.startedAt > 60_000) this.crashes = 0;
    const delay = Math.min(30_000, 1000 * 2 ** this.crashes++);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.closing && this.rooms.size > 0) this.spawn().catch(() => undefined);
    }, delay);
  }

  /** Stops the actors gracefully (files closed with final metadata), then ends the thread. */
  async close(graceMs = 4000): Promise<void> {
    this.closing = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (!worker) return;
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    // The worker closes what a stuck stop still holds open a little before the grace ends, so its FileClosed events
    // are posted before the thread is ended (otherwise only the next start's crash recovery closes those files).
    await Promise.race([this.call((api) => api.shutdown(Math.max(0, graceMs - OVERDUE_MARGIN_MS))).catch(() => undefined), timeout]);
    await worker.terminate();
  }
}
