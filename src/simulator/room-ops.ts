// The simulator's in-process room API (what the control routes call): rooms, live flips, pushes, faults.
import type { DanmakuHub } from './danmaku-hub.js';
import { DanmakuGenerator, type GeneratorConfig } from './danmaku-generator.js';
import { cutOffCommand, liveCommands, preparingCommand, roomChangeCommand } from './danmaku-messages.js';
import { API_FAULTS, type ApiFault, CONNECTION_FAULTS, type ConnectionFault, type Fault, FaultSchema, HLS_FAULTS, type HlsFault, REQUEST_FAULTS, type RequestFault } from './faults.js';
import { applyHlsFault } from './hls/hls-faults.js';
import { LIVE_FAULTS, type LiveFault } from './faults.js';
import { applyLiveFault } from './live-stream/live-faults.js';
import { startEpoch } from './live-stream/live-hls.js';
import { performance } from 'node:perf_hooks';
import { SimRoom, type SimRoomInit } from './room.js';
import { masterQnStrategyChg } from './origin-variants.js';

/** A control-API failure with the HTTP status to answer. */
export class SimError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export interface FaultResult {
  kind: Fault['kind'];
  /** Open responses/sockets it was applied to at once. */
  appliedToOpen: number;
  /** Uses left waiting for future calls/connections. */
  pending: number;
}

export abstract class RoomOps {
  readonly rooms = new Map<number, SimRoom>();
  private readonly shortIds = new Map<number, number>();
  private readonly generators = new Map<SimRoom, DanmakuGenerator>();
  abstract readonly hub: DanmakuHub;

  findRoom(id: number, acceptsShortId: boolean): SimRoom | undefined {
    const room = this.rooms.get(id);
    if (room || !acceptsShortId) return room;
    const real = this.shortIds.get(id);
    return real === undefined ? undefined : this.rooms.get(real);
  }

  room(id: number): SimRoom {
    const room = this.rooms.get(id);
    if (!room) throw new SimError(404, `No simulated room ${id}`);
    return room;
  }

  createRoom(init: SimRoomInit): SimRoom {
    if (this.rooms.has(init.roomId)) throw new SimError(409, `Room ${init.roomId} exists`);
    if (init.shortId && this.shortIds.has(init.shortId)) throw new SimError(409, `Short id ${init.shortId} is taken`);
    const room = new SimRoom(init);
    this.rooms.set(room.roomId, room);
    if (room.shortId) this.shortIds.set(room.shortId, room.roomId);
    return room;
  }

  deleteRoom(id: number): void {
    const room = this.room(id);
    for (const c of room.media) c.end();
    this.generators.get(room)?.stop();
    this.generators.delete(room);
    this.hub.drop(room, 'close');
    room.variants?.stop();
    this.rooms.delete(id);
    if (room.shortId) this.shortIds.delete(room.shortId);
  }

  /**
   * Flips live_status and pushes the matching command in the same tick: LIVE twice (the first with live_time),
   * or PREPARING (round → live_status 2); going offline ends open FLV responses at a tag boundary.
   */
  setLive(id: number, live: boolean, round = false): SimRoom {
    const room = this.room(id);
    if (live) {
      if (!room.live) {
        room.session++;
        room.liveStartTime = Math.floor(Date.now() / 1000);
        room.endedAt = null;
        room.liveStream?.restart(Date.now(), room.clipIndex);
      }
      room.liveStatus = 1;
      this.hub.push(room, liveCommands(room));
    } else {
      if (room.live) room.endedAt = Date.now();
      room.liveStatus = round ? 2 : 0;
      room.liveStartTime = 0;
      this.hub.push(room, [preparingCommand(room, round)]);
      for (const c of room.media) c.end();
    }
    return room;
  }

  changeRoom(id: number, change: { title?: string; areaNameParent?: string; areaNameChild?: string }): SimRoom {
    const room = this.room(id);
    if (change.title !== undefined) room.title = change.title;
    if (change.areaNameParent !== undefined) room.areaNameParent = change.areaNameParent;
    if (change.areaNameChild !== undefined) room.areaNameChild = change.areaNameChild;
    this.hub.push(room, [roomChangeCommand(room)]);
    return room;
  }

  /** CUT_OFF by an admin: the command, then the room goes offline (PREPARING) and its streams end. */
  cutOff(id: number, msg: string): SimRoom {
    const room = this.room(id);
    this.hub.push(room, [cutOffCommand(room, msg)]);
    return this.setLive(id, false);
  }

  /** Pushes commands on the room's danmaku sockets; returns how many sockets got them. */
  push(id: number, commands: object[]): number {
    return this.hub.push(this.room(id), commands);
  }

  /** Starts, changes or (rate 0) stops the room's stream of generated danmaku (see danmaku-generator.ts). */
  danmakuRate(id: number, config: GeneratorConfig): DanmakuGenerator {
    const room = this.room(id);
    let gen = this.generators.get(room);
    if (!gen) this.generators.set(room, (gen = new DanmakuGenerator(room, (commands) => this.hub.push(room, commands))));
    return gen.configure(config);
  }

  /** What the room's generator sent so far (counts and every message with its media position). */
  danmakuSent(id: number): { rate: number; counts: DanmakuGenerator['counts']; messages: DanmakuGenerator['sent'] } {
    const gen = this.generators.get(this.room(id));
    const status = gen?.toJSON() ?? { rate: 0 };
    return { rate: status.rate as number, counts: gen?.counts ?? { DANMU_MSG: 0, SUPER_CHAT_MESSAGE: 0, SEND_GIFT: 0, GUARD_BUY: 0 }, messages: gen?.sent ?? [] };
  }

  /** Stops every generator (simulator closing). */
  stopGenerators(): void {
    for (const gen of this.generators.values()) gen.stop();
  }

  pushRaw(id: number, bytes: Buffer): number {
    return this.hub.pushRaw(this.room(id), bytes);
  }

  /** Arms a fault (see faults.ts for the shapes); throws SimError 400 for a bad shape. */
  addFault(id: number, input: unknown): FaultResult {
    const room = this.room(id);
    const parsed = FaultSchema.safeParse(input);
    if (!parsed.success) {
      throw new SimError(400, `Bad fault: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
    }
    const fault: Fault = parsed.data;
    const result: FaultResult = { kind: fault.kind, appliedToOpen: 0, pending: 0 };
    if (API_FAULTS.has(fault.kind)) {
      const f = fault as ApiFault;
      room.apiFaults.push(f.durationMs !== undefined ? { fault: f, remaining: f.count, until: Date.now() + f.durationMs } : { fault: f, remaining: f.count });
      result.pending = f.count;
    } else if (REQUEST_FAULTS.has(fault.kind)) {
      room.requestFaults.push({ fault: fault as RequestFault, remaining: (fault as RequestFault).count });
      result.pending = (fault as RequestFault).count;
    } else if (CONNECTION_FAULTS.has(fault.kind)) {
      const f = fault as ConnectionFault;
      const now = performance.now();
      for (const conn of room.media) {
        if (result.appliedToOpen >= f.count) break;
        if (!conn.open) continue;
        conn.addFault(f, now);
        result.appliedToOpen++;
      }
      result.pending = f.count - result.appliedToOpen;
      if (result.pending > 0) room.connectionFaults.push({ fault: f, remaining: result.pending });
    } else if (LIVE_FAULTS.has(fault.kind)) {
      result.appliedToOpen = applyLiveFault(room, fault as LiveFault);
    } else if (HLS_FAULTS.has(fault.kind)) {
      result.appliedToOpen = applyHlsFault(room, fault as HlsFault);
    } else if (fault.kind === 'header-change') {
      room.clipIndex = room.clipIndex === 0 ? 1 : 0;
      if (room.liveStream) {
        // One clock: the FLV and the HLS switch together at a segment boundary past all that was listed or sent.
        const sentUpTo = Math.max(0, ...[...room.media].filter((c) => c.open).map((c) => c.nextPosition()));
        startEpoch(room, room.liveStream, { midStream: fault.midStream, afterMs: fault.afterMs, sentUpTo });
        result.appliedToOpen = fault.midStream ? room.media.size : 0;
      } else if (fault.midStream) {
        const now = performance.now();
        for (const conn of room.media) conn.switchClipAt(fault.afterMs, now, 'size');
        result.appliedToOpen = room.media.size;
      }
    } else if (fault.kind === 'codec-switch') {
      room.codecSwapped = !room.codecSwapped;
      if (fault.midStream) {
        const now = performance.now();
        for (const conn of room.media) conn.switchClipAt(fault.afterMs, now, 'codec');
        result.appliedToOpen = room.media.size;
      }
    } else if (fault.kind === 'danmaku-drop') {
      result.appliedToOpen = this.hub.drop(room, fault.mode);
    }
    return result;
  }

  /**
   * The origin goes away: its open responses end (the recorder reconnects and is handed `_bluray`), and it comes back
   * after `returnAfterMs` (default the room's originReturnDelayMs) with a `master_qn_strategy_chg` on danmaku.
   */
  originOutage(id: number, returnAfterMs?: number): SimRoom {
    const room = this.room(id);
    const v = room.variants;
    if (!v) throw new SimError(400, `Room ${id} offers no variants`);
    v.stop();
    v.originAvailable = false;
    v.outages++;
    for (const c of room.media) if (c.variant === '') c.end();
    v.timer = setTimeout(() => this.originReturn(id), returnAfterMs ?? v.returnDelayMs);
    return room;
  }

  /** The origin is offered again, announced by `master_qn_strategy_chg`. */
  originReturn(id: number): SimRoom {
    const room = this.room(id);
    if (!room.variants) throw new SimError(400, `Room ${id} offers no variants`);
    room.variants.stop();
    room.variants.originAvailable = true;
    this.hub.push(room, [masterQnStrategyChg()]);
    return room;
  }

  clearFaults(id: number): void {
    const room = this.room(id);
    room.apiFaults.length = 0;
    room.requestFaults.length = 0;
    room.connectionFaults.length = 0;
  }
}
