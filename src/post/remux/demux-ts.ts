// MPEG-TS (HLS TS recordings) → samples: H.264/HEVC/AV1 access units per PES, AAC frames out of ADTS; 90 kHz clock.
// Every byte is booked in the ledger. A PES whose start lost its payload_unit_start flag is found by its own header
// (00 00 01 + stream id + PTS markers: bytes no video or ADTS payload holds); one PES is held up to MAX_PES bytes.
import { payloadStart, readTimestamp, TS_PACKET } from '../../hls/ts-packets.js';
import { identifyStream, registrationOf } from '../../hls/ts-stream-types.js';
import { AnnexBConverter } from './annexb.js';
import { Av1TsConverter } from './av1-ts.js';
import type { FileReader } from './file-reader.js';
import type { ByteLedger } from './ledger.js';
import { aacEntry, ascInfo } from './sample-entries.js';
import type { SampleSink } from './track.js';
import { videoEntry } from './video-config.js';

const WRAP = 2 ** 33;
/** The most bytes one PES may gather before it is dropped (skipped): a 4K key frame is a few MB. */
export const MAX_PES = 16 << 20;

interface Pes {
  kind: 'h264' | 'hevc' | 'av1' | 'aac';
  parts: Buffer[];
  /** Payload bytes gathered, and the file offset of the PES's first packet. */
  bytes: number;
  at: number;
  /** Past MAX_PES: its bytes are skipped until the next PES starts. */
  dropping: boolean;
  track: number;
  last: number | null;
}

/** A PES header at b[s] of a payload ending at `end`: start code, a stream id of the kind, marker bits and a PTS. */
function looksLikePesStart(b: Uint8Array, s: number, end: number, audio: boolean): boolean {
  if (s + 14 > end || b[s] !== 0 || b[s + 1] !== 0 || b[s + 2] !== 1) return false;
  const id = b[s + 3]!;
  if (audio ? id < 0xc0 || id > 0xdf : id < 0xe0 || id > 0xef) return false;
  if ((b[s + 6]! & 0xc0) !== 0x80 || !(b[s + 7]! & 0x80) || s + 9 + b[s + 8]! > end) return false;
  return (b[s + 9]! >> 4 === 2 || b[s + 9]! >> 4 === 3) && (b[s + 9]! & 1) === 1;
}

/** Unwraps a 33-bit time against the previous one. */
function unwrap(t: number, prev: number | null): number {
  if (prev === null) return t;
  let v = t + Math.floor(prev / WRAP) * WRAP;
  if (v - prev > WRAP / 2) v -= WRAP;
  else if (prev - v > WRAP / 2) v += WRAP;
  return v;
}

export function demuxTs(r: FileReader, sink: SampleSink, ledger: ByteLedger): void {
  const pmtPids = new Set<number>();
  const streams = new Map<number, Pes>();
  const video = { conv: null as AnnexBConverter | Av1TsConverter | null, track: -1 };
  /** PIDs of PMT entries that are not read (reported once each as an anomaly; their packets are skipped). */
  const unknown = new Set<number>();
  let audioTrack = -1;
  let audioCarry = Buffer.alloc(0);

  const skip = (pes: Pes, bytes: number, reason: string): void => {
    sink.anomaly(reason);
    ledger.skip(pes.at, bytes, reason);
  };

  const flushVideo = (pes: Pes, data: Buffer): void => {
    const t = pesTime(data);
    if (!t) return skip(pes, data.length, 'ts-pes-without-time');
    video.conv ??= pes.kind === 'av1' ? new Av1TsConverter() : new AnnexBConverter(pes.kind === 'hevc');
    const au = video.conv.convert(data.subarray(t.payload));
    // Parameter sets and delimiters only: understood (they are the sample entry's configuration).
    if (!au) return ledger.structure(data.length);
    if (video.track < 0) {
      if (!video.conv.config) return skip(pes, data.length, 'ts-video-before-parameter-sets');
      const v = videoEntry(pes.kind === 'hevc' ? 'hevc' : pes.kind === 'av1' ? 'av1' : 'avc', video.conv.config);
      video.track = sink.track({ handler: 'vide', timescale: 90000, sampleEntry: v.entry, width: v.width, height: v.height });
    }
    const dts = unwrap(t.dts, pes.last);
    const pts = unwrap(t.pts, dts);
    pes.last = dts;
    sink.sample(video.track, dts, pts - dts, au.key, au.sample);
    ledger.structure(t.payload);
    ledger.sample(data.length - t.payload);
  };

  const flushAudio = (pes: Pes, data: Buffer): void => {
    const t = pesTime(data);
    if (!t) return skip(pes, data.length, 'ts-pes-without-time');
    ledger.structure(t.payload);
    let buf = Buffer.concat([audioCarry, data.subarray(t.payload)]);
    let time = unwrap(t.pts, pes.last);
    let p = 0;
    let lost = 0;
    while (p + 7 <= buf.length) {
      if (buf[p] !== 0xff || (buf[p + 1]! & 0xf0) !== 0xf0) {
        lost++;
        p++;
        continue;
      }
      const len = ((buf[p + 3]! & 0x03) << 11) | (buf[p + 4]! << 3) | (buf[p + 5]! >> 5);
      const head = buf[p + 1]! & 0x01 ? 7 : 9;
      if (len < head) { lost++; p++; continue; }
      if (p + len > buf.length) break;
      if (audioTrack < 0) {
        const profile = (buf[p + 2]! >> 6) + 1;
        const freq = (buf[p + 2]! >> 2) & 0x0f;
        const ch = ((buf[p + 2]! & 0x01) << 2) | (buf[p + 3]! >> 6);
        const asc = Buffer.from([(profile << 3) | (freq >> 1), ((freq & 1) << 7) | (ch << 3)]);
        audioTrack = sink.track({ handler: 'soun', timescale: 90000, sampleEntry: aacEntry(asc).entry, width: 0, height: 0 });
        (pes as Pes & { rate?: number }).rate = ascInfo(asc).sampleRate;
      }
      sink.sample(audioTrack, Math.round(time), 0, true, buf.subarray(p + head, p + len));
      ledger.structure(head);
      ledger.sample(len - head);
      time += (1024 * 90000) / ((pes as Pes & { rate?: number }).rate ?? 48000);
      p += len;
    }
    if (lost) skip(pes, lost, 'ts-adts-lost-sync');
    pes.last = unwrap(t.pts, pes.last);
    audioCarry = Buffer.from(buf.subarray(p));
    buf = Buffer.alloc(0);
  };

  const flush = (pes: Pes): void => {
    pes.dropping = false;
    if (pes.parts.length === 0) return;
    const data = Buffer.concat(pes.parts);
    pes.parts = [];
    pes.bytes = 0;
    if (pes.kind === 'aac') flushAudio(pes, data);
    else flushVideo(pes, data);
  };

  /** A packet that is not one: the bytes up to the next sync byte that a packet boundary confirms are skipped. */
  const resync = (at: number): void => {
    let next = -1;
    r.seek(at + 1);
    while (r.ensure(1)) {
      const here = r.position;
      if (r.bytes[r.at] === 0x47 && (here + TS_PACKET >= r.size || r.readAt(here + TS_PACKET, 1)[0] === 0x47)) {
        next = here;
        break;
      }
      r.seek(here + 1);
    }
    const reason = next < 0 ? 'ts-truncated-packet' : 'ts-lost-sync';
    sink.anomaly(reason);
    ledger.skip(at, (next < 0 ? r.size : next) - at, reason);
    r.seek(next < 0 ? r.size : next);
  };

  for (;;) {
    const at = r.position;
    if (at >= r.size) break;
    const pkt = r.peek(TS_PACKET);
    if (!pkt || pkt[0] !== 0x47) {
      resync(at);
      continue;
    }
    const pid = ((pkt[1]! & 0x1f) << 8) | pkt[2]!;
    let unitStart = (pkt[1]! & 0x40) !== 0;
    const s = payloadStart(pkt, 0);
    const pes = streams.get(pid);
    // No payload, null packets, and the DVB/MPEG service tables (CAT, SDT, EIT… on PIDs 1–0x1f): structure.
    if (s < 0 || pid === 0x1fff || (pid >= 1 && pid <= 0x1f)) ledger.structure(TS_PACKET);
    else if (pid === 0 || pmtPids.has(pid)) {
      ledger.structure(TS_PACKET);
      if (pid === 0 && unitStart) readPat(pkt, s, pmtPids);
      else if (unitStart) {
        for (const skipped of readPmt(pkt, s, streams)) {
          if (!unknown.has(skipped)) sink.anomaly('ts-unread-stream');
          unknown.add(skipped);
        }
      }
    } else if (!pes) {
      sink.anomaly('ts-unread-stream');
      ledger.skip(at, TS_PACKET, 'ts-unread-stream');
    } else {
      ledger.structure(s);
      const n = TS_PACKET - s;
      if (!unitStart && looksLikePesStart(pkt, s, TS_PACKET, pes.kind === 'aac')) {
        // The flag is missing, the header is there: the access unit ends here all the same.
        sink.anomaly('ts-missing-unit-start');
        unitStart = true;
      }
      if (unitStart) {
        flush(pes);
        pes.at = at;
      }
      if (pes.dropping) ledger.skip(at, n, 'ts-pes-too-large');
      else if (!unitStart && pes.parts.length === 0) {
        sink.anomaly('ts-pes-without-start');
        ledger.skip(at, n, 'ts-pes-without-start');
      } else if (pes.bytes + n > MAX_PES) {
        sink.anomaly('ts-pes-too-large');
        ledger.skip(pes.at, pes.bytes + n, 'ts-pes-too-large');
        pes.parts = [];
        pes.bytes = 0;
        pes.dropping = true;
      } else {
        pes.parts.push(Buffer.from(pkt.subarray(s, TS_PACKET)));
        pes.bytes += n;
      }
    }
    r.skip(TS_PACKET);
  }
  for (const pes of streams.values()) flush(pes);
  if (audioCarry.length) {
    sink.anomaly('ts-adts-truncated');
    ledger.skip(r.size - audioCarry.length, audioCarry.length, 'ts-adts-truncated');
  }
}

function pesTime(b: Buffer): { pts: number; dts: number; payload: number } | null {
  if (b.length < 14 || b[0] !== 0 || b[1] !== 0 || b[2] !== 1) return null;
  const flags = b[7]! >> 6;
  const payload = 9 + b[8]!;
  if (!(flags & 0x02) || payload > b.length) return null;
  const pts = readTimestamp(b, 9);
  return { pts, dts: flags === 0x03 && b.length >= 19 ? readTimestamp(b, 14) : pts, payload };
}

function readPat(b: Uint8Array, s: number, pmtPids: Set<number>): void {
  const p = s + 1 + b[s]!;
  const len = ((b[p + 1]! & 0x0f) << 8) | b[p + 2]!;
  for (let q = p + 8; q + 4 <= Math.min(p + 3 + len - 4, TS_PACKET); q += 4) {
    const program = (b[q]! << 8) | b[q + 1]!;
    if (program !== 0) pmtPids.add(((b[q + 2]! & 0x1f) << 8) | b[q + 3]!);
  }
}

/** Adds the streams it reads; returns the PIDs of the entries it does not. */
function readPmt(b: Uint8Array, s: number, streams: Map<number, Pes>): number[] {
  const p = s + 1 + b[s]!;
  const len = ((b[p + 1]! & 0x0f) << 8) | b[p + 2]!;
  const end = Math.min(p + 3 + len - 4, TS_PACKET);
  let q = p + 12 + (((b[p + 10]! & 0x0f) << 8) | b[p + 11]!);
  const skipped: number[] = [];
  while (q + 5 <= end) {
    const type = b[q]!;
    const pid = ((b[q + 1]! & 0x1f) << 8) | b[q + 2]!;
    const infoEnd = Math.min(end, q + 5 + (((b[q + 3]! & 0x0f) << 8) | b[q + 4]!));
    const kind = type === 0x1b ? 'h264' : type === 0x24 ? 'hevc' : type === 0x0f ? 'aac'
      : identifyStream(type, registrationOf(b, q + 5, infoEnd))?.codec === 'av1' ? 'av1' : null;
    if (kind && !streams.has(pid)) streams.set(pid, { kind, parts: [], bytes: 0, at: 0, dropping: false, track: -1, last: null });
    if (!kind) skipped.push(pid);
    q = infoEnd;
  }
  return skipped;
}
