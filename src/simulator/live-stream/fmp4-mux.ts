// A minimal fMP4 fragment muxer (moof + mdat, one traf per track): the simulator's live HLS from its FLV frames.

export interface MuxSample {
  /** Decode time in the track's timescale. */
  dts: number;
  duration: number;
  /** Composition offset in the track's timescale. */
  cts: number;
  key: boolean;
  bytes: Uint8Array;
}

export interface MuxTrack {
  trackId: number;
  samples: MuxSample[];
}

function box(type: string, ...parts: Uint8Array[]): Buffer {
  const size = 8 + parts.reduce((n, p) => n + p.length, 0);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(size, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, ...parts], size);
}

function fullBox(type: string, version: number, flags: number, body: Buffer): Buffer {
  const vf = Buffer.alloc(4);
  vf.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff), 0);
  return box(type, vf, body);
}

const TRUN_FLAGS = 0x000001 | 0x000100 | 0x000200 | 0x000400 | 0x000800;

function traf(track: MuxTrack, dataOffset: number): Buffer {
  const tfhd = Buffer.alloc(4);
  tfhd.writeUInt32BE(track.trackId, 0);
  const tfdt = Buffer.alloc(8);
  tfdt.writeBigUInt64BE(BigInt(track.samples[0]?.dts ?? 0), 0);
  const trun = Buffer.alloc(8 + 16 * track.samples.length);
  trun.writeUInt32BE(track.samples.length, 0);
  trun.writeInt32BE(dataOffset, 4);
  track.samples.forEach((s, i) => {
    const p = 8 + 16 * i;
    trun.writeUInt32BE(s.duration, p);
    trun.writeUInt32BE(s.bytes.length, p + 4);
    trun.writeUInt32BE(s.key ? 0x02000000 : 0x01010000, p + 8);
    trun.writeInt32BE(s.cts, p + 12);
  });
  // tfhd flag 0x020000: default-base-is-moof (data offsets count from the moof's first byte).
  return box('traf', fullBox('tfhd', 0, 0x020000, tfhd), fullBox('tfdt', 1, 0, tfdt), fullBox('trun', 1, TRUN_FLAGS, trun));
}

/** One fragment: moof (sequence number `seq`) + mdat with every track's samples in turn. */
export function muxFragment(seq: number, tracks: MuxTrack[]): Buffer {
  const mfhd = Buffer.alloc(4);
  mfhd.writeUInt32BE(seq >>> 0, 0);
  const build = (offsets: number[]): Buffer => box('moof', fullBox('mfhd', 0, 0, mfhd), ...tracks.map((t, i) => traf(t, offsets[i]!)));
  const moofSize = build(tracks.map(() => 0)).length;
  const offsets: number[] = [];
  let at = moofSize + 8;
  for (const t of tracks) {
    offsets.push(at);
    at += t.samples.reduce((n, s) => n + s.bytes.length, 0);
  }
  return Buffer.concat([build(offsets), box('mdat', ...tracks.flatMap((t) => t.samples.map((s) => s.bytes)))]);
}
