// The invariants the model test checks after every command: the real system agrees with the model (REST, SSE,
// GraphQL, files and their webhooks), and what must never happen did not (double events, opens after a stop, gaps
// the model did not cause, files ffprobe cannot read).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { probe, probeStreams } from '../support/media-tools.js';
import { breaks, seiTimestamps } from '../gaps/helpers.js';
import type { Model } from './model.js';
import { recordBoundMs } from './pool.js';
import type { RealSystem } from './real-system.js';
import type { Hook } from './webhook-sink.js';
import { tolerated } from './known-defects.js';

export class InvariantError extends Error {}

interface Seen {
  roomId: number;
  autoRecord: boolean;
  recording: boolean;
  streaming: boolean;
}

function compare(source: string, m: Model, seen: Seen[], out: string[]): void {
  const ids = seen.map((s) => s.roomId).sort();
  const want = [...m.rooms.keys()].sort();
  if (ids.join() !== want.join()) out.push(`${source} lists rooms [${ids}], the model [${want}]`);
  for (const s of seen) {
    const r = m.rooms.get(s.roomId);
    if (!r) continue;
    if (s.autoRecord !== r.autoRecord) out.push(`${source} room ${s.roomId}: autoRecord ${s.autoRecord}, model ${r.autoRecord}`);
    if (s.recording !== r.recording) out.push(`${source} room ${s.roomId}: recording ${s.recording}, model ${r.recording} (live ${m.liveOf(s.roomId)})`);
    // A room is checked while auto-record is on; one that records is streaming whatever its setting.
    if ((r.autoRecord || s.recording) && s.streaming !== m.liveOf(s.roomId)) out.push(`${source} room ${s.roomId}: streaming ${s.streaming}, simulator live ${m.liveOf(s.roomId)}`);
  }
}

/** Files by RelativePath: their FileOpening and FileClosed events (each event once, by EventId). */
export function fileEvents(r: RealSystem): Map<string, { opening: Hook[]; closed: Hook[]; roomId: number }> {
  const files = new Map<string, { opening: Hook[]; closed: Hook[]; roomId: number }>();
  for (const e of r.hooks.events) {
    if (e.EventType !== 'FileOpening' && e.EventType !== 'FileClosed') continue;
    const path = String(e.EventData.RelativePath);
    let f = files.get(path);
    if (!f) files.set(path, (f = { opening: [], closed: [], roomId: e.EventData.RoomId }));
    (e.EventType === 'FileOpening' ? f.opening : f.closed).push(e);
  }
  return files;
}

/** What the running system says that the model does not (empty: they agree). */
export async function disagreements(m: Model, r: RealSystem): Promise<string[]> {
  const out: string[] = [];
  compare('REST', m, await r.restRooms(), out);
  compare('GraphQL', m, await r.gqlRooms(), out);
  if (!r.sse?.connected) out.push('the /api/events stream is not connected');
  else compare('SSE', m, [...r.sse.rooms.values()], out);
  const files = fileEvents(r);
  for (const path of r.mediaFiles()) if (!files.get(path)?.opening.length && !m.clipOutputs.has(path)) out.push(`${path} is on disk without a FileOpening`);
  const open = new Map<number, string[]>();
  for (const [path, f] of files) if (f.opening.length > 0 && f.closed.length === 0) open.set(f.roomId, [...(open.get(f.roomId) ?? []), path]);
  for (const [roomId, paths] of open) if (!m.rooms.get(roomId)?.recording) out.push(`room ${roomId} should not record but has no FileClosed for ${paths.join(', ')}`);
  for (const room of m.rooms.values()) {
    const n = open.get(room.roomId)?.length ?? 0;
    if (room.recording && n !== 1) out.push(`room ${room.roomId} should record into one open file, has ${n}`);
  }
  return out;
}

/** Waits (bounded generously) until the system agrees with the model; throws the disagreements otherwise. */
export async function settle(m: Model, r: RealSystem, boundMs = recordBoundMs(m.riskPending, m.effectiveBudget)): Promise<void> {
  const deadline = Date.now() + boundMs;
  let last: string[] = [];
  for (;;) {
    last = await disagreements(m, r);
    if (last.length === 0) break;
    if (Date.now() > deadline) {
      const rooms = [...new Set(last.flatMap((l) => [...l.matchAll(/room (\d{3,})/g)].map((x) => Number(x[1]))))];
      const why = await r.diagnose(rooms);
      throw new InvariantError(`not settled within ${boundMs} ms:\n  ${[...last, ...why].join('\n  ')}`);
    }
    await new Promise((res) => setTimeout(res, 250));
  }
  await strictChecks(m, r);
  await checkMarkers(m, r);
}

/** Every marker added is listed, whatever ran since (a kill included: the markers file is replaced atomically). */
export async function checkMarkers(m: Model, r: RealSystem): Promise<void> {
  const bad: string[] = [];
  for (const [path, n] of m.markers) {
    const res = await r.api('GET', `/api/file/markers?path=${encodeURIComponent(path)}`);
    const got = res.status === 200 ? (res.json.markers as unknown[]).length : -1;
    if (got !== n) bad.push(`${path}: ${got} markers listed (HTTP ${res.status}), ${n} added`);
  }
  if (bad.length) throw new InvariantError(bad.join('\n'));
}

const at = (s: unknown): number => Date.parse(String(s));

/** What must never be seen, settled or not. */
export async function strictChecks(m: Model, r: RealSystem): Promise<void> {
  const bad: string[] = [];
  for (const [path, f] of fileEvents(r)) {
    if (f.opening.length > 1) bad.push(`${path}: ${f.opening.length} FileOpening events`);
    if (f.closed.length > 1) bad.push(`${path}: ${f.closed.length} FileClosed events`);
    if (f.closed.length > 0 && f.opening.length === 0) bad.push(`${path}: FileClosed without FileOpening`);
    const opened = f.opening[0] ? at(f.opening[0].EventData.FileOpenTime) : Number.NaN;
    for (const w of m.windows) {
      if (w.roomId !== null && w.roomId !== f.roomId) continue;
      if (opened > w.from && opened < w.to) bad.push(`${path} opened ${opened - w.from} ms after the room was ${w.why}`);
    }
    const closed = f.closed[0];
    if (!closed) continue;
    const gaps = (closed.EventData.Gaps ?? []).filter((g) => g.Reason !== 'timestamp-jump' || !tolerated('falseTimestampJumpGap', `${path}: ${JSON.stringify(g)}`));
    if (gaps.length > 0) {
      const end = at(closed.EventData.FileCloseTime);
      const losses = m.losses.filter((l) => l.roomId === f.roomId && l.from < end && l.to > opened);
      const reported = gaps.reduce((n, g) => n + g.DurationMs, 0);
      // What the file really lacks: the simulator stamps every frame with its stream time (an SEI), so the holes
      // in that sequence are the truth; without stamps (another clip after a header change), the loss spans' length.
      const file = join(r.dir, path);
      const sei = path.endsWith('.flv') && existsSync(file) ? seiTimestamps(file) : [];
      const truth = sei.length > 0 && sei.every((t) => Number.isFinite(t)) ? breaks(sei).reduce((n, [a, b]) => n + (b - a - 40), 0) : null;
      const lostMs = truth ?? losses.reduce((n, l) => n + (l.to - l.from), 0);
      if (gaps.length > losses.length || reported > lostMs + 1000) {
        bad.push(`${path}: gaps ${JSON.stringify(gaps)} where the model lost ${losses.length} span(s) (${losses.map((l) => l.why).join(', ') || 'nothing'}) and the file lacks ${lostMs} ms${truth === null ? ' (by wall clock)' : ' (by its frames)'}`);
      }
    }
    if (!m.probed.has(path) && existsSync(join(r.dir, path))) {
      m.probed.add(path);
      // The ffprobe devDependency cannot read MPEG-TS (docs/architecture.md); FLV and MP4 it reads in full.
      if (!path.endsWith('.ts')) {
        // The soak decodes every frame (LIVEREC_MODEL_DECODE=frames, its default); `npm test` reads packets, which is
        // cheaper but misses frames of one parameter set under another's headers (docs/testing.md).
        const full = process.env.LIVEREC_MODEL_DECODE === 'frames';
        const read = full ? probeStreams(join(r.dir, path), 'frames').then((s) => ({ errors: s.errors, codecs: s.streams.map((x) => x.codec_name) })) : probe(join(r.dir, path));
        const p = await read.catch((err: Error) => ({ errors: err.message, codecs: [] as string[] }));
        if (p.errors !== '' || !p.codecs.includes('h264')) bad.push(`${path}: ffprobe ${JSON.stringify(p.errors)} codecs ${p.codecs}`);
      }
    }
  }
  if (bad.length) throw new InvariantError(bad.join('\n'));
}

/** Settings the model set are what the API answers (global and per room). */
export async function checkSettings(m: Model, r: RealSystem): Promise<void> {
  const bad: string[] = [];
  const g = await r.api('GET', '/api/config/global');
  const instant = g.json?.optionalDanmakuInstantDetect;
  if ((instant?.hasValue ? instant.value : false) !== m.instantDetect) bad.push(`global DanmakuInstantDetect ${JSON.stringify(instant)}, model ${m.instantDetect}`);
  const budget = g.json?.optionalApiBudgetPerMinute;
  if (budget?.value !== m.budget) bad.push(`global ApiBudgetPerMinute ${JSON.stringify(budget)}, model ${m.budget}`);
  for (const room of m.rooms.values()) {
    const c = await r.api('GET', `/api/room/${room.roomId}/config`);
    const v = c.json?.optionalRecordDanmaku;
    const got = v?.hasValue ? v.value : null;
    if (got !== room.recordDanmaku) bad.push(`room ${room.roomId} RecordDanmaku ${JSON.stringify(v)}, model ${room.recordDanmaku}`);
    if (c.json?.autoRecord !== room.autoRecord) bad.push(`room ${room.roomId} config autoRecord ${c.json?.autoRecord}, model ${room.autoRecord}`);
  }
  // config.json holds the same, in brec's shape with every value written out (issue 51): AutoRecord {HasValue, Value}.
  const path = join(r.dir, 'config.json');
  if (existsSync(path)) {
    const file = JSON.parse(readFileSync(path, 'utf8')) as { rooms?: { RoomId?: { Value?: number }; AutoRecord?: unknown }[] };
    for (const room of m.rooms.values()) {
      const entry = file.rooms?.find((x) => x.RoomId?.Value === room.roomId);
      if (!entry) bad.push(`room ${room.roomId} missing from config.json`);
      else if (JSON.stringify(entry.AutoRecord) !== JSON.stringify({ HasValue: true, Value: room.autoRecord })) bad.push(`room ${room.roomId} config.json AutoRecord ${JSON.stringify(entry.AutoRecord)}, model ${room.autoRecord}`);
    }
  }
  if (bad.length) throw new InvariantError(bad.join('\n'));
}
