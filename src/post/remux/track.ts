// What a demuxer tells the MP4 muxer: each track's codec setup, then samples in file order.

export interface TrackSetup {
  handler: 'vide' | 'soun';
  /** Decode-time units per second of the samples this track will receive. */
  timescale: number;
  /** The complete sample entry box (avc1/hvc1/av01/mp4a … with its configuration box) for stsd. */
  sampleEntry: Buffer;
  width: number;
  height: number;
}

export interface SampleSink {
  /** Declares a track; returns its index for sample(). */
  track(setup: TrackSetup): number;
  /** A sample: decode time and composition offset in the track's timescale; the bytes are copied before returning. */
  sample(track: number, dts: number, cto: number, sync: boolean, data: Uint8Array): void;
  /** A recoverable oddity of the input (a torn tag, a backwards timestamp): counted, never fatal. */
  anomaly(what: string): void;
}

/** Growable typed columns of one track's samples (a few bytes a sample: an hour of 60 fps video is ~2 MB). */
export class SampleColumns {
  count = 0;
  sizes = new Uint32Array(1024);
  dts = new Float64Array(1024);
  cto = new Int32Array(1024);
  sync = new Uint8Array(1024);

  push(size: number, dts: number, cto: number, sync: boolean): void {
    if (this.count === this.sizes.length) {
      const grow = <T extends Uint32Array | Float64Array | Int32Array | Uint8Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.sizes = grow(this.sizes);
      this.dts = grow(this.dts);
      this.cto = grow(this.cto);
      this.sync = grow(this.sync);
    }
    this.sizes[this.count] = size;
    this.dts[this.count] = dts;
    this.cto[this.count] = cto;
    this.sync[this.count] = sync ? 1 : 0;
    this.count++;
  }
}
