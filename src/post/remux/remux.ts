// Native remux of a recording (FLV, MPEG-TS or fragmented MP4) to a faststart MP4: streamed in, no ffmpeg.
import { closeSync, fsyncSync, openSync, readSync } from 'node:fs';
import { demuxFlv } from './demux-flv.js';
import { demuxFmp4 } from './demux-fmp4.js';
import { demuxTs } from './demux-ts.js';
import { FileReader } from './file-reader.js';
import { DataWriter, Mp4Muxer, writeAll, type MuxedTrack } from './muxer.js';
import type { SampleSink } from './track.js';

export interface RemuxReport {
  input: string;
  output: string;
  format: 'flv' | 'ts' | 'fmp4';
  tracks: MuxedTrack[];
  anomalies: Record<string, number>;
}

/** The container of a file, from its first bytes. */
export function sniffFormat(path: string): 'flv' | 'ts' | 'fmp4' | null {
  const fd = openSync(path, 'r');
  const head = Buffer.alloc(12);
  try {
    readSync(fd, head, 0, 12, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1', 0, 3) === 'FLV') return 'flv';
  if (head[0] === 0x47) return 'ts';
  if (['ftyp', 'moov', 'styp', 'moof'].includes(head.toString('latin1', 4, 8))) return 'fmp4';
  return null;
}

const DEMUXERS = { flv: demuxFlv, ts: demuxTs, fmp4: demuxFmp4 } as const;

function demux(input: string, format: keyof typeof DEMUXERS, sink: SampleSink): void {
  const reader = new FileReader(input);
  try {
    DEMUXERS[format](reader, sink);
  } finally {
    reader.close();
  }
}

/**
 * Writes `output` (replacing it) from `input`, which is only read: pass 1 for the sample tables, then the header
 * (moov first), then pass 2 for the media bytes. Reading twice costs less than writing the media twice.
 */
export function remuxToMp4(input: string, output: string): RemuxReport {
  const format = sniffFormat(input);
  if (!format) throw new Error(`${input} is not FLV, MPEG-TS or MP4`);
  const muxer = new Mp4Muxer();
  demux(input, format, muxer);
  const header = muxer.header();
  const tracks = muxer.summary();
  const fd = openSync(output, 'w');
  try {
    for (const part of header) writeAll(fd, part);
    const kept = muxer.keptTracks();
    const writer = new DataWriter(fd, (i) => kept.has(i));
    demux(input, format, writer);
    writer.flush();
    if (writer.written !== muxer.mediaBytes) throw new Error(`the second read gave ${writer.written} media bytes, the first ${muxer.mediaBytes}: ${input} changed while it was remuxed`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return { input, output, format, tracks, anomalies: muxer.anomalies };
}
