// `liverec check`: what liverec would do for one room, without recording, through the recorder's own stream choice.
import type { BilibiliApiClient } from '../bilibili/api-client.js';
import { errorCode } from '../errors.js';
import { errorUnavailable, RISK_ERROR_CODES, type UnavailableReason } from '../bilibili/room-availability.js';
import { chooseQuality, qualityTokens, tokenText } from '../bilibili/quality.js';
import { classifyStream, type SourceKind } from '../bilibili/provenance.js';
import { tokenOf } from '../bilibili/recording-protocol.js';
import { resolveStreamUrl, selectFormat } from '../bilibili/stream-url.js';
import { ProtocolChoice } from '../rooms/captures/protocol-choice.js';

export interface OfferedStream {
  protocol: string;
  format: string;
  codec: string;
  /** current_qn: what the service serves at the asked qn. */
  qn: number;
  acceptQn: number[];
  hosts: number;
  drm: boolean;
  /** What the stream is, by the recorder's own classifier (src/bilibili/provenance.ts, docs/origin.md). */
  kind: SourceKind;
  /** The facts `kind` rests on (name suffix, suffix=, qn …). */
  evidence: string[];
}

/** recordable: live with a stream to record; offline: nothing to record now (not a fault); notRecordable: a known reason stands in the way; error: the room could not be checked. */
export type CheckVerdict = 'recordable' | 'offline' | 'notRecordable' | 'error';

export interface RoomCheck {
  /** As given on the command line. */
  query: number;
  roomId: number | null;
  shortId: number | null;
  uid: number | null;
  name: string | null;
  title: string | null;
  /** 0 offline, 1 live, 2 round (replay loop); null when the room could not be read. */
  liveStatus: number | null;
  live: boolean;
  unavailableReason: UnavailableReason | null;
  streams: OfferedStream[];
  choice: { protocol: string; format: string; codec: string; qn: number; currentQn: number; host: string; source: 'play-info' | 'master-playlist' } | null;
  /** RecordingQuality's answer, decided first: the quality served and where it comes from, and why. */
  quality: { qn: number; codec: string; source: 'play-info' | 'master-playlist'; why: string } | null;
  /** RecordingProtocol's answer, decided after the quality, and why. */
  protocol: { token: string; why: string } | null;
  /** Why this stream, or why none. */
  why: string;
  error: { code: string; message: string } | null;
  /** The answer for scripts (`liverec check` exits 0, 3 or 1 by it). */
  verdict: CheckVerdict;
}

export interface CheckSettings {
  recordingQuality: string;
  recordingProtocol: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** Every codec entry of a getRoomPlayInfo `data`, read from the raw answer so that fields liverec does not model (drm) show too. */
export function offeredStreams(raw: unknown): OfferedStream[] {
  const playurl = isObj(raw) && isObj(raw.playurl_info) && isObj(raw.playurl_info.playurl) ? raw.playurl_info.playurl : null;
  const out: OfferedStream[] = [];
  for (const s of list(playurl?.stream)) {
    for (const f of list(s.format)) {
      for (const c of list(f.codec)) {
        // The URL of the first host, as the recorder classifies a codec entry (origin-offer.ts entryProvenance).
        const host = list(c.url_info)[0];
        const url = `${host ? String(host.host ?? '') : ''}${String(c.base_url ?? '')}${host ? String(host.extra ?? '') : ''}`;
        const provenance = classifyStream({ url, codec: String(c.codec_name), qn: Number(c.current_qn) });
        out.push({
          protocol: String(s.protocol_name), format: String(f.format_name), codec: String(c.codec_name),
          qn: Number(c.current_qn), acceptQn: Array.isArray(c.accept_qn) ? c.accept_qn.map(Number) : [],
          hosts: Array.isArray(c.url_info) ? c.url_info.length : 0, drm: c.drm === true,
          kind: provenance.kind, evidence: provenance.evidence,
        });
      }
    }
  }
  return out;
}

const silent = { log: (): void => undefined };

export async function checkRoom(api: BilibiliApiClient, id: number, settings: CheckSettings): Promise<RoomCheck> {
  const r: RoomCheck = {
    query: id, roomId: null, shortId: null, uid: null, name: null, title: null, liveStatus: null, live: false,
    unavailableReason: null, streams: [], choice: null, quality: null, protocol: null, why: '', error: null, verdict: 'error',
  };
  const done = (): RoomCheck => Object.assign(r, { verdict: verdictOf(r) });
  const failed = (err: unknown, stage: string): RoomCheck => {
    const code = errorCode(err) ?? 'ERROR';
    r.error = { code, message: (err as Error).message };
    r.unavailableReason = errorUnavailable(code) ?? (RISK_ERROR_CODES.has(code) ? 'riskControl' : null);
    r.why = `${stage} failed: ${code}${r.unavailableReason ? ` (unavailableReason ${r.unavailableReason})` : ''}`;
    return done();
  };
  try {
    const info = await api.getRoomInfo(id);
    Object.assign(r, { roomId: info.roomId, shortId: info.shortId, uid: info.uid, name: info.anchorName, title: info.title, liveStatus: info.liveStatus, live: info.liveStatus === 1 });
  } catch (err) {
    return failed(err, 'getInfoByRoom');
  }
  if (!r.live) {
    r.why = r.liveStatus === 2 ? 'the room is in its replay loop (live_status 2): nothing to record' : 'the room is not live';
    return done();
  }
  const roomId = r.roomId!;
  let status;
  try {
    status = await api.getRoomStatus(roomId);
  } catch (err) {
    return failed(err, 'getRoomPlayInfo');
  }
  r.streams = offeredStreams(status.raw);
  r.unavailableReason = status.unavailableReason;
  if (r.unavailableReason) {
    r.why = `not recorded: unavailableReason ${r.unavailableReason}; the recorder checks it again every TimingCheckInterval`;
    return done();
  }
  // The recorder's own choice: RecordingProtocol through ProtocolChoice, then resolveStreamUrl.
  const formats = new ProtocolChoice(silent).formats(settings.recordingProtocol);
  const tokens = qualityTokens(settings.recordingQuality);
  try {
    const url = await resolveStreamUrl(api, roomId, undefined, formats);
    const source = url.decision?.source ?? 'master-playlist';
    r.choice = { protocol: url.format === 'flv' ? 'http_stream' : 'http_hls', format: url.format, codec: url.codec, qn: url.qn, currentQn: url.currentQn, host: url.host, source };
    const { format, entries } = selectFormat(status.play, formats);
    const chosen = chooseQuality(new Map([...entries].map(([codec, e]) => [codec, e.acceptQn])), tokens);
    const offers = [...entries].map(([codec, e]) => `${codec} [${e.acceptQn.join(', ')}]`).join(', ');
    const qualityWhy = `RecordingQuality ${tokens.map(tokenText).join(',')}: ${tokenText(chosen)} is the first offered (${offers}); ${url.decision?.why ?? 'play info offers none of the formats: the master playlist'}`;
    const protocolWhy = source === 'master-playlist'
      ? `RecordingProtocol ${formats.map(tokenOf).join(',')}: hls-fmp4, the only protocol of the master playlist, which the quality chose (quality before protocol)`
      : `RecordingProtocol ${formats.map(tokenOf).join(',')}: ${tokenOf(format)} is the first the room offers`;
    r.quality = { qn: url.currentQn, codec: url.codec, source, why: qualityWhy };
    r.protocol = { token: tokenOf(url.format), why: protocolWhy };
    r.why = `quality: ${qualityWhy}; protocol: ${protocolWhy}`;
  } catch (err) {
    const code = errorCode(err) ?? 'ERROR';
    r.error = { code, message: (err as Error).message };
    r.why = `no stream would be recorded: ${code}: ${(err as Error).message}`;
  }
  return done();
}

/** Answers the service gave about the room, as opposed to failing to give one (network, risk control, bad answers). */
const NOT_RECORDABLE_CODES = new Set(['NO_STREAM', 'NO_MATCHING_QN', 'PLAYURL_NULL', 'ROOM_UNAVAILABLE', 'API_ROOM_ENCRYPTED']);

export function verdictOf(r: RoomCheck): CheckVerdict {
  if (r.choice) return 'recordable';
  if (r.unavailableReason && r.unavailableReason !== 'riskControl') return 'notRecordable';
  if (r.error) return NOT_RECORDABLE_CODES.has(r.error.code) ? 'notRecordable' : 'error';
  return r.live ? 'notRecordable' : 'offline';
}

/** The exit status of a check: 1 when a room could not be checked, else 3 when one cannot be recorded, else 0. */
export function checkExitCode(rooms: readonly RoomCheck[]): number {
  if (rooms.some((r) => r.verdict === 'error')) return 1;
  return rooms.some((r) => r.verdict === 'notRecordable') ? 3 : 0;
}

/** The terminal form of a check. */
export function checkText(r: RoomCheck): string {
  const lines: string[] = [];
  const ids = r.roomId === null ? `room ${r.query}` : `room ${r.roomId}${r.shortId ? ` (short id ${r.shortId})` : ''}`;
  const state = r.liveStatus === null ? 'unknown' : r.live ? 'live' : r.liveStatus === 2 ? 'replay loop' : 'offline';
  lines.push(`${ids}${r.name ? ` · ${r.name}` : ''}${r.title ? ` · ${r.title}` : ''}`);
  lines.push(`  live state:        ${state}${r.liveStatus === null ? '' : ` (live_status ${r.liveStatus})`}`);
  lines.push(`  unavailableReason: ${r.unavailableReason ?? 'none'}`);
  if (r.streams.length > 0) {
    lines.push('  streams offered:');
    for (const s of r.streams) {
      lines.push(`    ${s.protocol.padEnd(11)} ${s.format.padEnd(4)} ${s.codec.padEnd(4)} qn ${String(s.qn).padEnd(5)} accept [${s.acceptQn.join(', ')}]  hosts ${s.hosts}  drm ${s.drm ? 'yes' : 'no'}`);
      lines.push(`      ${s.kind.padEnd(9)} ${s.evidence.length > 0 ? s.evidence.join(', ') : 'no evidence'}`);
    }
  }
  if (r.choice) lines.push(`  would record:      ${r.choice.protocol}/${r.choice.format} ${r.choice.codec} qn ${r.choice.currentQn} from ${r.choice.host} (${r.choice.source})`);
  else lines.push('  would record:      nothing');
  if (r.quality && r.protocol) {
    lines.push(`  quality (first):   qn ${r.quality.qn} ${r.quality.codec} from the ${r.quality.source}: ${r.quality.why}`);
    lines.push(`  protocol (second): ${r.protocol.token}: ${r.protocol.why}`);
  } else lines.push(`  why:               ${r.why}`);
  lines.push(`  verdict:           ${r.verdict}`);
  if (r.error) lines.push(`  error:             ${r.error.code}: ${r.error.message}`);
  return lines.join('\n');
}
