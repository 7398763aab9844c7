// FLV → samples: H.264/HEVC (legacy codec 12 or Enhanced FLV) and AV1 video, AAC audio. Tags are parsed in the
// reader's window without copies: a sample is reported by its place in the file, since FLV carries video as
// length-prefixed NAL units (or AV1 OBUs) and audio as raw AAC frames, exactly as MP4 does. Every byte is booked in
// the ledger; a tag that is not whole (its trailer does not give its size back) is skipped up to the next one that is.
import type { ByteLedger } from './ledger.js';
import { aacEntry } from './sample-entries.js';
import type { FileReader } from './file-reader.js';
import type { SampleSink } from './track.js';
import { videoEntry, type VideoCodec } from './video-config.js';

const FOURCCS: Record<number, VideoCodec> = { 0x61766331: 'avc', 0x68766331: 'hevc', 0x61763031: 'av1' };
const si24 = (b: Uint8Array, p: number): number => ((b[p]! << 16) | (b[p + 1]! << 8) | b[p + 2]!) << 8 >> 8;
const isTagType = (t: number): boolean => t === 8 || t === 9 || t === 18;
/** An FLV file header (version 1, header size 9) at b[p]: a CDN restart spliced into a capture repeats it. */
const isHeaderAt = (b: Uint8Array, p: number): boolean =>
  b[p] === 0x46 && b[p + 1] === 0x4c && b[p + 2] === 0x56 && b[p + 3] === 1 && b[p + 5] === 0 && b[p + 6] === 0 && b[p + 7] === 0 && b[p + 8] === 9;

export function demuxFlv(r: FileReader, sink: SampleSink, ledger: ByteLedger): void {
  const head = r.read(9);
  if (!head || head.toString('latin1', 0, 3) !== 'FLV') throw new Error('not an FLV file');
  const headerSize = Math.max(9, head.readUInt32BE(5));
  r.seek(headerSize + 4);
  ledger.structure(Math.min(r.size, headerSize + 4));
  let video = -1;
  let audio = -1;
  let videoConfig: Buffer | null = null;
  let audioConfig: Buffer | null = null;
  /** Milliseconds added to timestamps after a spliced-in header restarted them, and the newest time so far. */
  let shift = 0;
  let rebase = false;
  let newest = -Infinity;
  let videoStep = 1;
  let lastVideo = -Infinity;

  /** The tag at the reader's position when it is whole: header in the window, trailer equal to 11 + size. */
  const whole = (): { size: number; trailer: number } | null => {
    if (!r.ensure(11)) return null;
    const b = r.bytes;
    const p = r.at;
    if (!isTagType(b[p]!) || b[p + 8] !== 0 || b[p + 9] !== 0 || b[p + 10] !== 0) return null;
    const size = (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;
    const end = r.position + 11 + size;
    if (end > r.size) return null;
    // The last tag of a cut file may lack its trailer: its body is whole, the missing size field is no loss.
    if (end + 4 > r.size) return { size, trailer: r.size - end };
    return r.readAt(end, 4).readUInt32BE(0) === 11 + size ? { size, trailer: 4 } : null;
  };

  /** The offset of the next whole tag or file header at or after `from`, or -1. */
  const resync = (from: number): number => {
    r.seek(from);
    while (r.ensure(11)) {
      const at = r.position;
      if (r.ensure(13) && isHeaderAt(r.bytes, r.at)) return at;
      if (whole()) return at;
      r.seek(at + 1);
    }
    return -1;
  };

  /** The body of the tag at the reader's position from `from` on, copied (sequence headers only: they are kept). */
  const body = (from: number, size: number): Buffer => {
    r.ensure(11 + size);
    return Buffer.from(r.bytes.subarray(r.at + 11 + from, r.at + 11 + size));
  };

  const time = (ts: number): number => {
    if (rebase) {
      rebase = false;
      if (ts + shift < newest) shift = newest + videoStep - ts;
    }
    const t = ts + shift;
    if (t > newest) newest = t;
    return t;
  };

  while (r.ensure(1)) {
    const at = r.position;
    if (r.ensure(13) && isHeaderAt(r.bytes, r.at)) {
      // A second file header (a CDN restart in a raw capture): understood, and its timestamps start again.
      sink.anomaly('flv-second-header');
      ledger.structure(13);
      r.skip(13);
      rebase = true;
      continue;
    }
    const tag = whole();
    if (!tag) {
      const next = resync(at + 1);
      const reason = next < 0 ? 'flv-truncated-tag' : 'flv-bad-tag';
      sink.anomaly(reason);
      ledger.skip(at, (next < 0 ? r.size : next) - at, reason);
      if (next < 0) break;
      r.seek(next);
      continue;
    }
    r.seek(at);
    r.ensure(11);
    const { size, trailer } = tag;
    const tagBytes = 11 + size + trailer;
    const b0 = r.bytes;
    const p0 = r.at;
    const type = b0[p0]!;
    const ts = ((b0[p0 + 7]! << 24) | (b0[p0 + 4]! << 16) | (b0[p0 + 5]! << 8) | b0[p0 + 6]!) >>> 0;
    const bodyAt = at + 11;
    /** What became of the tag: its body from `from` on a sample, the rest structure; or all of it skipped. */
    const booked = (sampleFrom: number): void => {
      ledger.sample(size - sampleFrom);
      ledger.structure(tagBytes - (size - sampleFrom));
    };
    const skipped = (reason: string): void => {
      sink.anomaly(reason);
      ledger.skip(at, tagBytes, reason);
    };
    if (type === 18 || size === 0) ledger.structure(tagBytes);
    else if (type === 9) {
      if (size < 5) skipped('flv-short-tag');
      else {
        r.ensure(11 + Math.min(size, 8));
        const b = r.bytes;
        const p = r.at + 11;
        const h = b[p]!;
        let codec: VideoCodec | undefined;
        let packet: number;
        let key: boolean;
        let cto = 0;
        let from = -1;
        if (h & 0x80) {
          codec = FOURCCS[b.readUInt32BE(p + 1)];
          packet = h & 0x0f;
          key = ((h >> 4) & 7) === 1;
          // Only AVC and HEVC coded frames carry a composition offset (Enhanced RTMP); AV1's OBUs follow the FourCC.
          if (packet === 1 && codec !== 'av1' && size >= 8) {
            cto = si24(b, p + 5);
            from = 8;
          } else if (packet === 3 || packet === 0 || (packet === 1 && codec === 'av1')) from = 5;
          else if (packet === 2 || packet === 4) from = 0; // end of sequence, metadata: understood, nothing to keep
        } else {
          codec = (h & 0x0f) === 7 ? 'avc' : (h & 0x0f) === 12 ? 'hevc' : undefined;
          packet = b[p + 1]!;
          key = h >> 4 === 1;
          cto = si24(b, p + 2);
          from = packet === 2 ? 0 : 5;
        }
        if (!codec || from < 0) skipped('flv-unsupported-video');
        else if (from === 0) ledger.structure(tagBytes);
        else if (packet === 0) {
          const data = body(from, size);
          try {
            const v = videoEntry(codec, data);
            if (video < 0) {
              video = sink.track({ handler: 'vide', timescale: 1000, sampleEntry: v.entry, width: v.width, height: v.height });
            } else if (!videoConfig!.equals(data)) {
              // A new sequence header: later frames are described by it (a second sample description).
              sink.anomaly('flv-video-config-changed');
              sink.description(video, v.entry);
            }
            videoConfig = data;
            ledger.structure(tagBytes);
          } catch {
            skipped('flv-bad-sequence-header');
          }
        } else if (size === from) ledger.structure(tagBytes);
        else if (video < 0) skipped('flv-video-before-config');
        else {
          const t = time(ts);
          if (t > lastVideo && lastVideo > -Infinity) videoStep = Math.min(1000, t - lastVideo);
          lastVideo = t;
          sink.fileSample(video, t, cto, key, bodyAt + from, size - from);
          booked(from);
        }
      }
    } else {
      r.ensure(13);
      const b = r.bytes;
      const p = r.at + 11;
      if (b[p]! >> 4 !== 10) skipped('flv-unsupported-audio');
      else if (size < 2) skipped('flv-short-tag');
      else if (b[p + 1] === 0) {
        const asc = body(2, size);
        try {
          const a = aacEntry(asc);
          if (audio < 0) audio = sink.track({ handler: 'soun', timescale: 1000, sampleEntry: a.entry, width: 0, height: 0 });
          else if (!audioConfig!.equals(asc)) {
            sink.anomaly('flv-audio-config-changed');
            sink.description(audio, a.entry);
          }
          audioConfig = asc;
          ledger.structure(tagBytes);
        } catch {
          skipped('flv-bad-sequence-header');
        }
      } else if (size === 2) ledger.structure(tagBytes);
      else if (audio < 0) skipped('flv-audio-before-config');
      else {
        sink.fileSample(audio, time(ts), 0, true, bodyAt + 2, size - 2);
        booked(2);
      }
    }
    r.seek(at + tagBytes);
  }
}
