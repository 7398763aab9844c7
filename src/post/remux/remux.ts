// Native remux of a recording (FLV, MPEG-TS or fragmented MP4) to a faststart MP4: streamed in, no ffmpeg.
import { closeSync, openSync, readSync } from 'node:fs';
import { demuxFlv } from './demux-flv.js';
import { demuxFmp4 } from './demux-fmp4.js';
import { demuxTs } from './demux-ts.js';
import { FileReader } from './file-reader.js';
import { ByteLedger, type LedgerSummary } from './ledger.js';
import { Mp4Muxer, type MuxedTrack } from './muxer.js';
import { Spool } from './spool.js';
import type { SampleSink } from './track.js';
import { writeMuxed } from './write-muxed.js';

export interface RemuxReport {
  input: string;
  output: string;
  format: 'flv' | 'ts' | 'fmp4';
  tracks: MuxedTrack[];
  anomalies: Record<string, number>;
  /** Bytes the output's mdat holds (the verify step checks the file ends there). */
  mediaBytes: number;
  /** Where every byte of the input went: samples, understood structure, or skipped (with offsets and reasons). */
  ledger: LedgerSummary;
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

/** Demuxes the whole input into sink, booking its bytes in ledger; returns the input's size as read. */
function demux(input: string, format: keyof typeof DEMUXERS, sink: SampleSink, ledger = new ByteLedger()): number {
  const reader = new FileReader(input);
  try {
    DEMUXERS[format](reader, sink, ledger);
    return reader.size;
  } finally {
    reader.close();
  }
}

/**
 * Writes `output` (replacing it) from `input`, which is only read. Pass 1 reads the input for the sample tables
 * (spooled beside the output), then the header goes out (moov first), then pass 2 the media: FLV and fMP4 samples
 * are already laid out as MP4 wants them, so the region of the input that holds them becomes the mdat in a few
 * large copies (tag headers left between samples are bytes no table points at); TS samples are rebuilt and written
 * one by one from a second demux. Either way the media is written once, where ffmpeg's faststart writes it twice.
 */
export function remuxToMp4(input: string, output: string): RemuxReport {
  const format = sniffFormat(input);
  if (!format) throw new Error(`${input} is not FLV, MPEG-TS or MP4`);
  const spool = new Spool(`${output}.tables`);
  try {
    const muxer = new Mp4Muxer(spool);
    const ledger = new ByteLedger();
    const size = demux(input, format, muxer, ledger);
    const books = ledger.finish(size);
    const tracks = muxer.summary();
    writeMuxed(muxer, input, output, size, (sink) => demux(input, format, sink), 'remuxed');
    return { input, output, format, tracks, anomalies: muxer.anomalies, mediaBytes: muxer.mediaBytes, ledger: books };
  } finally {
    spool.close();
  }
}
