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

/**
 * A demuxer reports each sample one of two ways, the same way for a whole file: `fileSample` when the sample's
 * bytes lie in the input as MP4 wants them (FLV tag bodies, fMP4 mdat data: the remux then copies the input's
 * bytes in large blocks), `sample` when the demuxer had to build them (TS: Annex B → length-prefixed).
 */
export interface SampleSink {
  /** Declares a track; returns its index for sample(). */
  track(setup: TrackSetup): number;
  /** A sample the demuxer built: decode time and composition offset in the track's timescale; copied before returning. */
  sample(track: number, dts: number, cto: number, sync: boolean, data: Uint8Array): void;
  /** A sample whose `size` bytes are verbatim at `offset` in the input. */
  fileSample(track: number, dts: number, cto: number, sync: boolean, offset: number, size: number): void;
  /**
   * The track's codec setup changed (a new sequence header): samples from now on use this sample entry, written as a
   * further sample description (stsd entry) of the same track.
   */
  description(track: number, sampleEntry: Buffer): void;
  /** A recoverable oddity of the input (a torn tag, a backwards timestamp): counted, never fatal. */
  anomaly(what: string): void;
}
