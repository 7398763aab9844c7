// Reads back what an MP4 file holds (per track: handler, sample count, duration) from its moov, without its media.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { boxes, child, path } from '../../hls/mp4-boxes.js';

export interface Mp4Summary {
  /** The moov comes before the mdat. */
  faststart: boolean;
  tracks: { handler: string; samples: number; duration: number }[];
}

/** null when the file is not a readable, non-fragmented MP4. */
export function readMp4Summary(file: string): Mp4Summary | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(16);
    let pos = 0;
    let sawMdat = false;
    while (pos + 8 <= size) {
      readSync(fd, head, 0, 16, pos);
      let len = head.readUInt32BE(0);
      const type = head.toString('latin1', 4, 8);
      if (len === 1) len = Number(head.readBigUInt64BE(8));
      else if (len === 0) len = size - pos;
      if (len < 8 || pos + len > size) return null;
      if (type === 'mdat') sawMdat = true;
      if (type === 'moov') {
        const moov = Buffer.alloc(len);
        readSync(fd, moov, 0, len, pos);
        return { faststart: !sawMdat, tracks: summarize(moov) };
      }
      pos += len;
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

function summarize(buf: Buffer): Mp4Summary['tracks'] {
  const moov = boxes(buf)[0]!;
  const out: Mp4Summary['tracks'] = [];
  for (const trak of boxes(buf, moov.body, moov.end).filter((b) => b.type === 'trak')) {
    const mdhd = path(buf, trak, 'mdia', 'mdhd');
    const hdlr = path(buf, trak, 'mdia', 'hdlr');
    const stbl = path(buf, trak, 'mdia', 'minf', 'stbl');
    if (!mdhd || !hdlr || !stbl) continue;
    const v1 = buf[mdhd.body] === 1;
    const timescale = buf.readUInt32BE(mdhd.body + (v1 ? 20 : 12));
    const stsz = child(buf, stbl, 'stsz');
    const stts = child(buf, stbl, 'stts');
    let ticks = 0;
    if (stts) {
      const n = buf.readUInt32BE(stts.body + 4);
      for (let i = 0; i < n; i++) ticks += buf.readUInt32BE(stts.body + 8 + i * 8) * buf.readUInt32BE(stts.body + 12 + i * 8);
    }
    out.push({ handler: buf.toString('latin1', hdlr.body + 8, hdlr.body + 12), samples: stsz ? buf.readUInt32BE(stsz.body + 8) : 0, duration: ticks / timescale });
  }
  return out;
}
