// Writes the MP4 a muxer indexed (pass 2 of a remux or a clip): its header, then its media, checked against the source.
import { closeSync, fstatSync, fsyncSync, openSync } from 'node:fs';
import { copyRegion, DataWriter } from './media-copy.js';
import type { Mp4Muxer } from './muxer.js';
import type { SampleSink } from './track.js';

/**
 * FLV and fMP4 sources: the samples lie in one region of the source, copied byte for byte. TS: the samples are read
 * again through `reread` and written as given, only the tracks the muxer kept. Either way a source that changed since
 * the first read (`size` bytes; `grows`: a longer source is fine, the clip read a part) fails the write (`what`: the
 * work, for the message).
 */
export function writeMuxed(muxer: Mp4Muxer, input: string, output: string, size: number, reread: (sink: SampleSink) => void, what: string, grows = false): void {
  const fd = openSync(output, 'w');
  try {
    muxer.writeHeader(fd);
    if (muxer.verbatim) {
      const src = openSync(input, 'r');
      try {
        const whole = copyRegion(src, fd, muxer.regionStart, muxer.regionEnd);
        const now = fstatSync(src).size;
        if (!whole || (grows ? now < size : now !== size)) throw new Error(`${input} changed while it was ${what}`);
      } finally {
        closeSync(src);
      }
    } else {
      const kept = muxer.keptTracks();
      const writer = new DataWriter(fd, (i) => kept.has(i));
      reread(writer);
      writer.flush();
      if (writer.written !== muxer.mediaBytes) throw new Error(`the second read gave ${writer.written} media bytes, the first ${muxer.mediaBytes}: ${input} changed while it was ${what}`);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
