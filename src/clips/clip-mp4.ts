// A lossless clip of a recording as a faststart MP4: the native muxer fed only the samples inside the cut.
import { LiverecError } from '../errors.js';
import { demuxFlv } from '../post/remux/demux-flv.js';
import { demuxFmp4 } from '../post/remux/demux-fmp4.js';
import { demuxTs } from '../post/remux/demux-ts.js';
import { FileReader } from '../post/remux/file-reader.js';
import { ByteLedger } from '../post/remux/ledger.js';
import { Mp4Muxer } from '../post/remux/muxer.js';
import type { RemuxReport } from '../post/remux/remux.js';
import { sniffFormat } from '../post/remux/remux.js';
import { Spool } from '../post/remux/spool.js';
import { writeMuxed } from '../post/remux/write-muxed.js';
import type { SampleSink } from '../post/remux/track.js';
import { ClipWindow, CutFinder, EnoughRead, type ClipCut } from './clip-window.js';

const DEMUXERS = { flv: demuxFlv, ts: demuxTs, fmp4: demuxFmp4 } as const;
type Format = keyof typeof DEMUXERS;

/** Demuxes input into sink until the sink has read enough; returns the input's size. */
function demux(input: string, format: Format, sink: SampleSink): number {
  const reader = new FileReader(input);
  try {
    // A clip reads only up to its end, so the source's books are not kept: nothing is deleted by a clip.
    DEMUXERS[format](reader, sink, new ByteLedger());
  } catch (err) {
    if (!(err instanceof EnoughRead)) throw err;
  } finally {
    reader.close();
  }
  return reader.size;
}

/** The container of a clip's source; a clear error for anything else. */
export function clipFormat(input: string): Format {
  const format = sniffFormat(input);
  if (!format) throw new LiverecError('CLIP_BAD_INPUT', `${input} is not FLV, MPEG-TS or MP4`);
  return format;
}

/** Reads the source up to the clip's end for the timeline's origin and the keyframe the clip starts at. */
export function findCut(input: string, startMs: number, endMs: number): ClipCut {
  const finder = new CutFinder(startMs, endMs);
  demux(input, clipFormat(input), finder);
  const cut = finder.cut();
  if (!cut) throw new LiverecError('CLIP_EMPTY', `${input} has no video keyframe before ${endMs} ms, or ends before ${startMs} ms`);
  return cut;
}

export interface ClipMp4Report extends Omit<RemuxReport, 'ledger'> {
  cut: ClipCut;
}

/** Writes `output` (replacing it) with the cut's samples of `input`, which is only read; moov first, no re-encode. */
export function clipToMp4(input: string, output: string, cut: ClipCut): ClipMp4Report {
  const format = clipFormat(input);
  const spool = new Spool(`${output}.tables`);
  try {
    const muxer = new Mp4Muxer(spool);
    const size = demux(input, format, new ClipWindow(muxer, cut));
    const tracks = muxer.summary();
    if (!tracks.some((t) => t.handler === 'vide')) throw new LiverecError('CLIP_EMPTY', `no video between ${cut.fromMs} and ${cut.toMs} ms of ${input}`);
    writeMuxed(muxer, input, output, size, (sink) => demux(input, format, new ClipWindow(sink, cut)), 'clipped', true);
    return { input, output, format, tracks, anomalies: muxer.anomalies, mediaBytes: muxer.mediaBytes, cut };
  } finally {
    spool.close();
  }
}
