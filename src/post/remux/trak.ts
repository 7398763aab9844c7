// The trak box of one remuxed track: headers built here, sample tables streamed from the spool when written.
import { box, boxList, fullBox, fullBoxList, MATRIX, u32, type BoxList, type Piece } from './boxes.js';
import type { TrackTables } from './sample-tables.js';
import { SPOOL_BLOCK } from './spool.js';
import type { TrackSetup } from './track.js';

export const MOVIE_TIMESCALE = 1000;

/** Chunk offsets as stco (32-bit) or co64 words, each moved by `shift` (where the mdat's data starts) as written. */
function chunkOffsets(t: TrackTables, shift: number, co64: boolean): Piece {
  // One output buffer for every block: a fresh one each would pile up as garbage outside the JS heap (a GC rarely
  // runs here), and memory would grow with the recording's length.
  let scratch: Buffer | null = null;
  return {
    length: t.chunks * (co64 ? 8 : 4),
    writeTo: (fd) => t.offsets.writeTo(fd, (block) => {
      const n = block.length / 8;
      scratch ??= Buffer.allocUnsafe(SPOOL_BLOCK);
      const out = scratch.subarray(0, n * (co64 ? 8 : 4));
      const inp = new DataView(block.buffer, block.byteOffset, block.length);
      const dst = new DataView(out.buffer, out.byteOffset, out.length);
      for (let i = 0; i < n; i++) {
        const v = inp.getUint32(i * 8) * 0x100000000 + inp.getUint32(i * 8 + 4) + shift;
        if (co64) {
          dst.setUint32(i * 8, Math.floor(v / 0x100000000));
          dst.setUint32(i * 8 + 4, v >>> 0);
        } else dst.setUint32(i * 4, v);
      }
      return out;
    }),
  };
}

/** `entries`: the track's sample descriptions in stsd order (one per sequence header the source had). */
export function trak(setup: TrackSetup, entries: Buffer[], t: TrackTables, id: number, shift: number, co64: boolean, startSec: number): BoxList {
  const video = setup.handler === 'vide';
  const dur = t.duration;
  const movieDur = Math.round((dur / setup.timescale) * MOVIE_TIMESCALE);
  const tkhd = fullBox('tkhd', 0, 3, u32(0, 0, id, 0, movieDur), Buffer.alloc(8), Buffer.from([0, 0, 0, video ? 0 : 1, video ? 0 : 1, 0, 0, 0]),
    MATRIX, u32(video ? setup.width * 0x10000 : 0, video ? setup.height * 0x10000 : 0));
  const mdhd = fullBox('mdhd', 0, 0, u32(0, 0, setup.timescale, Math.round(dur)), Buffer.from([0x55, 0xc4, 0, 0]));
  const hdlr = fullBox('hdlr', 0, 0, u32(0), Buffer.from(setup.handler), Buffer.alloc(12), Buffer.from(video ? 'VideoHandler\0' : 'SoundHandler\0'));
  const stbl: BoxList = [
    ...fullBoxList('stsd', 0, 0, u32(entries.length), ...entries),
    ...fullBoxList('stts', 0, 0, u32(t.stts.entries), t.stts.table),
  ];
  if (t.anyCto) stbl.push(...fullBoxList('ctts', 1, 0, u32(t.ctts.entries), t.ctts.table));
  if (video && t.syncSamples < t.samples) stbl.push(...fullBoxList('stss', 0, 0, u32(t.syncSamples), t.stss));
  stbl.push(...fullBoxList('stsc', 0, 0, u32(t.stscEntries), t.stsc));
  stbl.push(...fullBoxList('stsz', 0, 0, u32(0, t.samples), t.stsz));
  stbl.push(...fullBoxList(co64 ? 'co64' : 'stco', 0, 0, u32(t.chunks), chunkOffsets(t, shift, co64)));
  const minf = boxList('minf', video ? fullBox('vmhd', 0, 1, Buffer.alloc(8)) : fullBox('smhd', 0, 0, Buffer.alloc(4)),
    box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1))), boxList('stbl', stbl));
  const parts: (Buffer | BoxList)[] = [tkhd];
  if (startSec > 0.0005) {
    // A track that starts after the other: an empty edit keeps the two in sync, as in the source.
    parts.push(box('edts', fullBox('elst', 0, 0, u32(2, Math.round(startSec * MOVIE_TIMESCALE), 0xffffffff, 0x10000, movieDur, 0, 0x10000))));
  }
  return boxList('trak', ...parts, boxList('mdia', mdhd, hdlr, minf));
}
