// The commands of the model test: user actions (REST, GraphQL, signals) and faults (simulator), each applied to the
// real system and the model alike, then settled and checked against the invariants.
import type fc from 'fast-check';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { probe } from '../support/media-tools.js';
import { checkSettings, fileEvents, InvariantError, settle, strictChecks } from './invariants.js';
import type { Model } from './model.js';
import { POOL, TIMING, recordBoundMs } from './pool.js';
import type { RealSystem } from './real-system.js';

export type Via = 'id' | 'short' | 'url';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The live-room URL form the web UI accepts, parsed as its parseRoomInput does (web/src/api.ts). */
const fromLiveUrl = (url: string): number => Number(/^(?:https?:\/\/)?live\.bilibili\.com\/(?:h5\/|blanc\/)?(\d+)/i.exec(url)![1]);

async function ok(r: RealSystem, method: string, path: string, body?: unknown): Promise<any> {
  const res = await r.api(method, path, body);
  if (res.status !== 200) throw new InvariantError(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.json)}`);
  return res.json;
}

/** Waits for `cond` (an event seen by the system), bounded; false on timeout. */
export async function until(cond: () => boolean | Promise<boolean>, boundMs: number): Promise<boolean> {
  const end = Date.now() + boundMs;
  while (!(await cond())) {
    if (Date.now() > end) return false;
    await sleep(100);
  }
  return true;
}

export abstract class RoomCommand implements fc.AsyncCommand<Model, RealSystem, false> {
  abstract check(m: Readonly<Model>): boolean;
  protected abstract act(m: Model, r: RealSystem): Promise<void>;
  async run(m: Model, r: RealSystem): Promise<void> {
    await this.act(m, r);
    m.steps++;
    await settle(m, r);
  }
  abstract toString(): string;
}

/**
 * A room command names its room by `pick`, an index into the rooms it can apply to when it runs (the model decides
 * which those are): random sequences then rarely hold commands that do not apply. `room` is the one it chose.
 */
export abstract class PickCommand extends RoomCommand {
  room = 0;
  constructor(readonly pick: number) {
    super();
  }
  protected abstract candidates(m: Readonly<Model>): number[];
  check(m: Readonly<Model>): boolean {
    return this.candidates(m).length > 0;
  }
  override async run(m: Model, r: RealSystem): Promise<void> {
    const c = this.candidates(m);
    this.room = c[this.pick % c.length]!;
    await super.run(m, r);
  }
  protected get name(): string {
    return this.room ? String(this.room) : `#${this.pick}`;
  }
}

const inModel = (m: Readonly<Model>): number[] => [...m.rooms.keys()].sort();
/** The add's bound on resolving a short id (src/rooms/resolve-room-id.ts), less a little for the clocks' grain. */
const RESOLVE_BOUND_MS = 4900;
const poolIndex = (roomId: number): number => POOL.findIndex((p) => p.roomId === roomId);

export class AddRoom extends PickCommand {
  /** reAdd: a room removed before, added again after `waitMs` (issue 45, defect 1: after more than a check interval). */
  constructor(pick: number, readonly via: Via, readonly autoRecord: boolean, readonly reAdd = false, readonly waitMs = 0) {
    super(pick);
  }
  protected candidates(m: Readonly<Model>): number[] {
    return POOL.map((p) => p.roomId).filter((id) => !m.rooms.has(id) && m.removed.has(id) === this.reAdd);
  }
  protected async act(m: Model, r: RealSystem): Promise<void> {
    if (this.waitMs) await sleep(this.waitMs);
    const p = POOL[poolIndex(this.room)]!;
    const addAsked = Date.now();
    if (this.via === 'url') {
      // The web UI's "add by live URL": parsed in the page, added through GraphQL as brec's WebUI does.
      const roomId = fromLiveUrl(`https://live.bilibili.com/${p.roomId}?broadcast_type=0&is_room_feed=1`);
      const res = await ok(r, 'POST', '/graphql', { query: `mutation { addRoom(roomId: ${roomId}, autoRecord: ${this.autoRecord}) { roomConfig { roomId } } }` });
      if (res.errors || res.data.addRoom.roomConfig.roomId !== p.roomId) throw new InvariantError(`addRoom answered ${JSON.stringify(res)}`);
    } else {
      const asked = Date.now();
      const res = await ok(r, 'POST', '/api/room', { roomId: this.via === 'id' ? p.roomId : p.shortId, autoRecord: this.autoRecord });
      // A short id is resolved before the room is listed, unless the live API cannot answer within 5 s (paused after a
      // -352, the call waits its turn under a tight budget, or a loaded machine: the answer itself took the 5 s): then
      // the room is listed by the id given and renamed at its first check (docs/recording.md); settle sees the rename.
      const waitedOut = Date.now() - asked >= RESOLVE_BOUND_MS;
      const asGiven = this.via === 'short' && (m.riskPending || m.budget < TIMING.budgetPerMinute || waitedOut) && res.roomId === p.shortId;
      if (res.roomId !== p.roomId && !asGiven) throw new InvariantError(`POST /api/room answered roomId ${res.roomId}, want ${p.roomId}`);
    }
    m.add(p.roomId, this.autoRecord, addAsked);
  }
  toString(): string {
    return `${this.reAdd ? `reAdd(after ${this.waitMs} ms, ` : 'add('}${this.name} by ${this.via}, autoRecord ${this.autoRecord})`;
  }
}

export class RemoveRoom extends PickCommand {
  protected candidates = inModel;
  protected async act(m: Model, r: RealSystem): Promise<void> {
    await ok(r, 'DELETE', `/api/room/${this.room}`);
    m.remove(this.room, Date.now());
  }
  toString(): string {
    return `remove(${this.name})`;
  }
}

export class StartStop extends PickCommand {
  constructor(pick: number, readonly action: 'start' | 'stop') {
    super(pick);
  }
  protected candidates = inModel;
  protected async act(m: Model, r: RealSystem): Promise<void> {
    const hits = r.sim.room(this.room).counters.apiHits;
    const checks = (): number => hits.getInfoByRoom + hits.getRoomPlayInfo;
    const before = checks();
    const offline = this.action === 'start' && !m.liveOf(this.room) && !m.rooms.get(this.room)!.recording;
    if (this.action === 'start') m.start(this.room);
    const asked = Date.now();
    await ok(r, 'POST', `/api/room/${this.room}/${this.action}`);
    if (this.action === 'stop') m.stop(this.room, Date.now(), asked);
    if (offline) {
      // A /start answers at once and checks the room after (brec refreshes room info first): a stream that begins
      // before that check, or in the same second as the start (live_time has seconds; liverec records a stream live
      // then when the start's check failed), is one the start may rightly record. The model's rule (an offline
      // room's start records nothing) holds for a stream that begins later: so the start settles first.
      await until(() => checks() > before, recordBoundMs(m.riskPending, m.effectiveBudget));
      await sleep(1000 - (Date.now() % 1000) + 100);
    }
  }
  toString(): string {
    return `${this.action}(${this.name})`;
  }
}

export class Split extends PickCommand {
  protected candidates = inModel;
  protected async act(m: Model, r: RealSystem): Promise<void> {
    const roomId = this.room;
    const openings = (): number => [...fileEvents(r).values()].filter((f) => f.roomId === roomId && f.opening.length > 0).length;
    const before = openings();
    const recording = m.rooms.get(roomId)!.recording;
    await ok(r, 'POST', `/api/room/${roomId}/split`);
    // A split of a recording room opens the next file (the old one closes: settle checks the pair).
    if (recording && !(await until(() => openings() > before, recordBoundMs(m.riskPending, m.effectiveBudget)))) throw new InvariantError(`split of recording room ${roomId} opened no new file`);
  }
  toString(): string {
    return `split(${this.name})`;
  }
}

export class SetAutoRecord extends PickCommand {
  protected candidates = inModel;
  protected async act(m: Model, r: RealSystem): Promise<void> {
    const on = !m.rooms.get(this.room)!.autoRecord;
    // Before the request: turning it on may start a recording (and end a stop's quiet) while the request is answered.
    m.setAutoRecord(this.room, on);
    await ok(r, 'POST', `/api/room/${this.room}/config`, { autoRecord: on });
  }
  toString(): string {
    return `toggleAutoRecord(${this.name})`;
  }
}

export class RoomSetting extends PickCommand {
  constructor(pick: number, readonly value: boolean | null) {
    super(pick);
  }
  protected candidates = inModel;
  protected async act(m: Model, r: RealSystem): Promise<void> {
    await ok(r, 'POST', `/api/room/${this.room}/config`, { optionalRecordDanmaku: this.value === null ? { hasValue: false } : { hasValue: true, value: this.value } });
    m.rooms.get(this.room)!.recordDanmaku = this.value;
  }
  override async run(m: Model, r: RealSystem): Promise<void> {
    await super.run(m, r);
    await checkSettings(m, r);
  }
  toString(): string {
    return `roomSetting(${this.name}, RecordDanmaku ${this.value})`;
  }
}

/** A global setting: DanmakuInstantDetect on/off, or ApiBudgetPerMinute tight (starts wait their turn) or roomy. */
export class GlobalSetting extends RoomCommand {
  constructor(readonly field: 'DanmakuInstantDetect' | 'ApiBudgetPerMinute', readonly value: boolean | number) {
    super();
  }
  check(): boolean {
    return true;
  }
  protected async act(m: Model, r: RealSystem): Promise<void> {
    await ok(r, 'POST', '/api/config/global', { [`optional${this.field}`]: { hasValue: true, value: this.value } });
    if (this.field === 'DanmakuInstantDetect') m.instantDetect = this.value as boolean;
    else {
      // A new ceiling starts the learned rate at it; the same one keeps what was learned. -352s still armed in the
      // simulator cut the new rate when they are answered (soak seed 5151 run 45: one cut after a change to 30).
      if (m.budget !== this.value) m.riskCuts = armedRisks(r);
      m.budget = this.value as number;
    }
  }
  override async run(m: Model, r: RealSystem): Promise<void> {
    await super.run(m, r);
    await checkSettings(m, r);
  }
  toString(): string {
    return `globalSetting(${this.field} ${this.value})`;
  }
}

/**
 * Whether liverec's events say it saw the room streaming at `since`, or a stream start or end after it and before
 * `until` (the go-live being modelled: liverec may see that stream a moment after the simulator answers).
 */
function liverecSawStream(r: RealSystem, roomId: number, since: number, until: number, from: number): boolean {
  let streaming = false;
  for (const e of r.hooks.events) {
    if (e.EventData.RoomId !== roomId || (e.EventType !== 'StreamStarted' && e.EventType !== 'StreamEnded')) continue;
    const at = Date.parse(e.EventTimestamp);
    // An earlier process's or an earlier listing's events say nothing of this one (seed 3434 run 8).
    if (at < from) continue;
    if (at >= since && at < until) return true;
    if (at < since) streaming = e.EventType === 'StreamStarted';
  }
  return streaming;
}

/** A room of the simulator goes live or offline; rooms liverec holds are picked twice as often as the others. */
export class SetLive extends PickCommand {
  constructor(pick: number, readonly live: boolean) {
    super(pick);
  }
  protected candidates(m: Readonly<Model>): number[] {
    const ids = POOL.map((p) => p.roomId).filter((id) => m.liveOf(id) !== this.live);
    return [...ids, ...ids.filter((id) => m.rooms.has(id))];
  }
  protected async act(m: Model, r: RealSystem): Promise<void> {
    const before = Date.now();
    await r.control(`/_sim/rooms/${this.room}/live`, { live: this.live });
    m.setLive(poolIndex(this.room), this.live, (id, since, from) => liverecSawStream(r, id, since, before, from));
  }
  toString(): string {
    return `${this.live ? 'goLive' : 'goOffline'}(${this.name})`;
  }
}

const recordingRooms = (m: Readonly<Model>): number[] => inModel(m).filter((id) => m.rooms.get(id)!.recording);

/** A loss of stream the model causes: a cut, or an FLV outage of some seconds. Gaps may be reported only here. */
export class StreamLoss extends PickCommand {
  constructor(pick: number, readonly kind: 'stream-cut' | 'flv-outage', readonly seconds = 0) {
    super(pick);
  }
  protected candidates = recordingRooms;
  protected async act(m: Model, r: RealSystem): Promise<void> {
    const roomId = this.room;
    const room = r.sim.room(roomId);
    const before = room.counters.streamConnections;
    const hlsBefore = room.counters.hlsSegmentRequests;
    const from = Date.now();
    const fault = this.kind === 'stream-cut' ? { kind: 'stream-cut', count: 1, afterMs: 0 } : { kind: 'flv-outage', seconds: this.seconds };
    const res = (await r.control(`/_sim/rooms/${roomId}/faults`, fault)) as { appliedToOpen: number };
    if (this.kind === 'stream-cut' && res.appliedToOpen === 0) {
      // No FLV response open (the room records over HLS now, or is between connections): a pending cut would hit
      // some later connection outside this loss's span, so it is taken back.
      await fetch(`${r.sim.url}/_sim/rooms/${roomId}/faults`, { method: 'DELETE' });
      return;
    }
    const loss = { roomId, from, to: Infinity, why: this.toString() };
    m.losses.push(loss);
    m.filesChanging.set(roomId, Date.now() + this.seconds * 1000 + 30_000);
    // The loss ends when the stream flows again: a new FLV response, or HLS segments after the outage.
    const outageEnd = from + this.seconds * 1000;
    const back = await until(() => room.counters.streamConnections > before || (Date.now() > outageEnd && room.counters.hlsSegmentRequests > hlsBefore + 2) || !m.rooms.get(roomId)?.recording,
      this.seconds * 1000 + recordBoundMs(m.riskPending, m.effectiveBudget));
    loss.to = Date.now() + 2000;
    if (!back) throw new InvariantError(`room ${roomId} did not reconnect after ${this.toString()}`);
  }
  toString(): string {
    return this.kind === 'stream-cut' ? `streamCut(${this.name})` : `flvOutage(${this.name}, ${this.seconds} s)`;
  }
}

export class HeaderChange extends PickCommand {
  protected candidates = recordingRooms;
  protected async act(m: Model, r: RealSystem): Promise<void> {
    // New SPS and resolution on open responses and every later connection: a new file, never a gap.
    await r.control(`/_sim/rooms/${this.room}/faults`, { kind: 'header-change', midStream: true, afterMs: 0 });
    m.filesChanging.set(this.room, Date.now() + 30_000);
  }
  toString(): string {
    return `headerChange(${this.name})`;
  }
}

export class BatchStatus extends RoomCommand {
  constructor(readonly failing: boolean) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    return m.batchFailing !== this.failing;
  }
  protected async act(m: Model, r: RealSystem): Promise<void> {
    // Both batch endpoints answer 404, as a service that drops or renames them would (issue 45, defect 2).
    await r.control('/_sim/batch-faults', this.failing ? { count: -1, kind: 'http-404' } : { count: 0 });
    m.batchFailing = this.failing;
  }
  toString(): string {
    return this.failing ? 'batchEndpointsFail()' : 'batchEndpointsRecover()';
  }
}

/** -352 answers the simulator still holds for pool rooms (armed, not yet answered). */
function armedRisks(r: RealSystem): number {
  return POOL.reduce((n, p) => n + r.sim.room(p.roomId).apiFaults.filter((a) => a.fault.kind === 'api352').reduce((k, a) => k + a.remaining, 0), 0);
}

export class Risk352 extends PickCommand {
  protected candidates = inModel;
  protected async act(m: Model, r: RealSystem): Promise<void> {
    await r.control(`/_sim/rooms/${this.room}/faults`, { kind: 'api352', count: 1 });
    m.armRisk();
    m.riskCuts++;
  }
  toString(): string {
    return `risk352(${this.name})`;
  }
}

/**
 * A fault (issue 46): the room's next live-API call is answered with a 3.8 MB `[[[…]]]` under the 4 MiB cap. The call
 * fails before parsing and the room retries; its thread, and every other room on it, records on. The model gives it
 * the slack of a -352 (it pauses nothing, so that is generous); any crash shows as sessions and files the model
 * did not expect.
 */
export class NestedApiAnswer extends PickCommand {
  protected candidates = inModel;
  protected async act(m: Model, r: RealSystem): Promise<void> {
    await r.control(`/_sim/rooms/${this.room}/faults`, { kind: 'api-malformed', variant: 'nested', count: 1 });
    m.armRisk();
  }
  toString(): string {
    return `nestedApiAnswer(${this.name})`;
  }
}

export class Restart extends RoomCommand {
  constructor(readonly signal: 'SIGTERM' | 'SIGKILL') {
    super();
  }
  check(): boolean {
    return true;
  }
  protected async act(m: Model, r: RealSystem): Promise<void> {
    const at = Date.now();
    if (this.signal === 'SIGTERM') m.stopAll(at, 'stopping (SIGTERM)');
    const exit = await r.halt(this.signal);
    if (this.signal === 'SIGTERM') {
      if (exit.code !== 0) throw new InvariantError(`SIGTERM: exit ${JSON.stringify(exit)}`);
      // A graceful stop closes every file and says so before the process exits.
      const open = [...fileEvents(r)].filter(([, f]) => f.opening.length > 0 && f.closed.length === 0).map(([p]) => p);
      if (open.length) throw new InvariantError(`after SIGTERM these files have no FileClosed: ${open.join(', ')}`);
      await strictChecks(m, r);
    }
    m.closeWindows(null);
    const armed = armedRisks(r);
    const launched = Date.now();
    await r.launch();
    m.restarted(armed, launched);
  }
  override async run(m: Model, r: RealSystem): Promise<void> {
    await super.run(m, r);
    await checkSettings(m, r);
  }
  toString(): string {
    return this.signal === 'SIGTERM' ? 'sigtermAndRestart()' : 'kill9AndRestart()';
  }
}

export const RE_ADD_WAIT_MS = TIMING.checkIntervalS * 1000 + 1500;

/** Recordings with a FileOpening whose file is on disk: what a person can mark, clip or watch. */
function recordings(r: RealSystem, closed: boolean): string[] {
  const out: string[] = [];
  for (const [path, f] of fileEvents(r)) if (f.opening.length > 0 && (f.closed.length > 0) === closed && /\.(flv|mp4)$/.test(path) && existsSync(join(r.dir, path))) out.push(path);
  return out.sort();
}

/** A person marks a moment of a recording, open or closed (docs/clips.md): it is listed from then on. */
export class Mark extends RoomCommand {
  path = '';
  constructor(readonly pick: number, readonly open: boolean) {
    super();
  }
  check(): boolean {
    return true;
  }
  protected async act(m: Model, r: RealSystem): Promise<void> {
    const list = recordings(r, !this.open);
    if (list.length === 0) return;
    this.path = list[this.pick % list.length]!;
    const res = await r.api('POST', '/api/file/markers', { path: this.path, atMs: 1000 + (this.pick % 5000), label: `m${m.steps}` });
    if (res.status === 404 && !existsSync(join(r.dir, this.path))) return; // retention or a remux took it meanwhile
    if (res.status !== 200) throw new InvariantError(`POST /api/file/markers ${this.path} answered ${res.status}: ${JSON.stringify(res.json)}`);
    m.markers.set(this.path, (m.markers.get(this.path) ?? 0) + 1);
  }
  toString(): string {
    return `mark(${this.path || `#${this.pick}`}${this.open ? ', open' : ''})`;
  }
}

/** A lossless clip of a closed recording: it ends done, ffprobe reads it clean, and the source is left as it was. */
export class Clip extends RoomCommand {
  path = '';
  constructor(readonly pick: number) {
    super();
  }
  check(): boolean {
    return true;
  }
  protected async act(m: Model, r: RealSystem): Promise<void> {
    // A file that holds the span: 50 KB can be under 2.5 s (a split or a kill right after a header change), and a
    // clip of a span the file lacks is refused (CLIP_EMPTY), which is not what this command checks.
    const big = recordings(r, true).filter((p) => statSync(join(r.dir, p)).size > 50_000);
    const list: string[] = [];
    for (const p of big) if ((await probe(join(r.dir, p)).catch(() => ({ duration: 0 }))).duration >= 3) list.push(p);
    if (list.length === 0) return;
    this.path = list[this.pick % list.length]!;
    const source = join(r.dir, this.path);
    const before = statSync(source).size;
    const res = await r.api('POST', '/api/clips', { path: this.path, startMs: 500, endMs: 2500 });
    if (res.status !== 202) throw new InvariantError(`POST /api/clips ${this.path} answered ${res.status}: ${JSON.stringify(res.json)}`);
    const id = res.json.id as string;
    const output = `${this.path.replace(/\.(flv|mp4)$/, '')}.clip-500-2500.mp4`;
    m.clipOutputs.add(output);
    // A kill while it runs leaves it queued in the journal: the next start runs it; the bound covers a restart.
    let clip: { state: string; error: string | null; output: string | null } | undefined;
    const ended = await until(async () => {
      const list2 = await r.api('GET', '/api/clips');
      clip = list2.status === 200 ? (list2.json as { id: string; state: string; error: string | null; output: string | null }[]).find((c) => c.id === id) : undefined;
      return clip?.state === 'done' || clip?.state === 'failed';
    }, 60_000);
    if (!ended || clip?.state !== 'done') throw new InvariantError(`clip ${id} of ${this.path}: ${JSON.stringify(clip)}`);
    if (statSync(source).size !== before) throw new InvariantError(`${this.path} changed size while it was clipped`);
    const p = await probe(join(r.dir, output));
    if (p.errors !== '' || !p.codecs.includes('h264')) throw new InvariantError(`${output}: ffprobe ${JSON.stringify(p.errors)} codecs ${p.codecs}`);
  }
  toString(): string {
    return `clip(${this.path || `#${this.pick}`})`;
  }
}

/**
 * Someone watches a recording room's live preview for a moment, at the URL of the format it writes (live.flv; a 409
 * naming live.ts or live.mp4 is followed): an FLV header, a TS packet or an MP4 ftyp first, and the recording goes on.
 */
export class WatchLive extends PickCommand {
  protected candidates = recordingRooms;
  protected async act(_m: Model, r: RealSystem): Promise<void> {
    let url = `${r.url}/api/room/${this.room}/live.flv`;
    let res = await fetch(url);
    if (res.status === 409) {
      const other = /live\.(ts|mp4)/.exec(((await res.json()) as { message: string }).message)?.[1];
      // Otherwise between two files (or raw mode): nothing to watch now.
      if (!other) return;
      url = `${r.url}/api/room/${this.room}/live.${other}`;
      res = await fetch(url);
      if (res.status === 409) return void (await res.body?.cancel());
    }
    if (res.status !== 200) throw new InvariantError(`GET ${url} answered ${res.status}: ${await res.text()}`);
    const reader = res.body!.getReader();
    const first = await Promise.race([reader.read(), sleep(15_000).then(() => null)]);
    await reader.cancel().catch(() => undefined);
    if (!first || first.done) return;
    const head = Buffer.from(first.value);
    const kind = url.slice(url.lastIndexOf('.') + 1);
    const ok = kind === 'flv' ? head.toString('latin1', 0, 3) === 'FLV' : kind === 'ts' ? head.length === 0 || head[0] === 0x47 : head.toString('latin1', 4, 8) === 'ftyp';
    if (!ok) throw new InvariantError(`room ${this.room}'s live preview (${kind}) does not start with its format's head`);
  }
  toString(): string {
    return `watchLive(${this.name})`;
  }
}

/** The risk-control threshold of issue 48's acceptance (calls a minute per IP), armed while rooms go live together. */
const TOGETHER_RISK_PER_MINUTE = 60;
/** Stream calls (play info, master playlist, room info) a start may take: one, the probe's two, one retry. */
const STREAM_CALLS_PER_START = 3;

/**
 * The budget under a burst (issue 48): every pool room that is offline goes live at once. Invariants: each one liverec
 * should record records within the bound (settle), no 412 from the simulator's risk control at 60 calls a minute
 * (armed for the command when the last minute left room for the burst), and a few stream calls per started room.
 */
export class LiveTogether extends RoomCommand {
  private going: number[] = [];
  check(m: Readonly<Model>): boolean {
    return POOL.filter((p) => !m.liveOf(p.roomId)).length >= 2;
  }
  protected async act(m: Model, r: RealSystem): Promise<void> {
    this.going = POOL.map((p) => p.roomId).filter((id) => !m.liveOf(id));
    const before = Date.now();
    await Promise.all(this.going.map((id) => r.control(`/_sim/rooms/${id}/live`, { live: true })));
    for (const id of this.going) m.setLive(poolIndex(id), true, (room, since, from) => liverecSawStream(r, room, since, before, from));
  }
  override async run(m: Model, r: RealSystem): Promise<void> {
    const calls = (): number[] => POOL.map((p) => {
      const h = r.sim.room(p.roomId).counters.apiHits;
      return h.getRoomPlayInfo + h.masterPlaylist + h.getInfoByRoom;
    });
    const before = calls();
    const hits = r.sim.risk.riskHits;
    // A burst of 5 starts and a round of detection is well under 30 calls; with more in the last minute (a restart's
    // start-up, a budget of 300) the threshold is not armed, the other checks still are.
    const armed = Object.values(r.sim.risk.lastMinute()).reduce((a, b) => a + b, 0) <= TOGETHER_RISK_PER_MINUTE / 2;
    if (armed) r.sim.risk.perMinute = TOGETHER_RISK_PER_MINUTE;
    try {
      await super.run(m, r);
    } finally {
      r.sim.risk.perMinute = 0;
    }
    if (r.sim.risk.riskHits !== hits) throw new InvariantError(`${r.sim.risk.riskHits - hits} answers of risk control (over ${TOGETHER_RISK_PER_MINUTE} calls a minute) while ${this.going.join(', ')} went live together`);
    if (m.riskPending || m.batchFailing) return;
    const after = calls();
    for (const id of this.going) {
      const i = poolIndex(id);
      const spent = after[i]! - before[i]!;
      if (m.rooms.get(id)?.recording && spent > STREAM_CALLS_PER_START) throw new InvariantError(`room ${id} took ${spent} stream calls to start (at most ${STREAM_CALLS_PER_START})`);
    }
  }
  toString(): string {
    return `liveTogether(${this.going.length ? this.going.join(', ') : 'every offline room'})`;
  }
}
