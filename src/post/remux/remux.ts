// Native remux of a recording (FLV, MPEG-TS or fragmented MP4) to a faststart MP4: streamed in, no ffmpeg.
import { closeSync, openSync, readSync } from 'node:fs';
import { demuxFlv } from './demux-flv.js';
import { demuxFmp4 } from './demux-fmp4.js';
import { demuxTs } from './demux-ts.js';
import { FileReader } from './file-reader.js';
import { Mp4Muxer, type MuxedTrack } from './muxer.js';

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

/** Writes `output` (replacing it) from `input`; the input is only read. */
export function remuxToMp4(input: string, output: string): RemuxReport {
  const format = sniffFormat(input);
  if (!format) throw new Error(`${input} is not FLV, MPEG-TS or MP4`);
  const reader = new FileReader(input);
  const muxer = new Mp4Muxer(`${output}.mdat-tmp`);
  try {
    if (format === 'flv') demuxFlv(reader, muxer);
    else if (format === 'ts') demuxTs(reader, muxer);
    else demuxFmp4(reader, muxer);
  } finally {
    reader.close();
  }
  const tracks = muxer.finish(output);
  return { input, output, format, tracks, anomalies: muxer.anomalies };
}
