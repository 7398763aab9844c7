// The output side of the writer: what a file (or in-memory list) target must do for the context writer.
import type { AmfMap } from '../metadata.js';
import type { FlvTag } from '../tag.js';

/** A finished output file. */
export interface FileClosedInfo {
  path: string;
  /** Bytes on disk. */
  size: number;
  /** Seconds: the last data timestamp written / 1000. */
  duration: number;
}

/**
 * A target for {@link FlvContextWriter}. The context writer decides *when* files open and close and what
 * script and headers they start with; the output decides how bytes and metadata are stored.
 */
export interface FlvOutput {
  /** True while a file is open. */
  readonly isOpen: boolean;
  /** Total bytes written to all files so far (for disk I/O statistics). */
  readonly bytesWritten: number;
  /** Tags written per opened file (script + headers + data + end), in file order. */
  readonly tagCounts: readonly number[];
  /**
   * Opens a new file and writes its start: FLV header, onMetaData built from a copy of `metadata`
   * (the shared session map; outputs must not modify it), then the video and audio headers (timestamp 0).
   */
  open(metadata: AmfMap, videoHeader: FlvTag | null, audioHeader: FlvTag | null): void;
  /** Appends one data group (timestamps already fixed) and updates duration / keyframe metadata. */
  writeData(tags: readonly FlvTag[]): void;
  /** Appends a plain data group already in output form (src/flv/fast); outputs without it never get one. */
  writePlain?(group: PlainGroupWrite): void;
  /** Appends an End tag. */
  writeEnd(tag: FlvTag): void;
  /** Adds a message to the text log that accompanies the current (or next) file. */
  log(message: string, duration: number): void;
  /** Finishes the current file, if any, leaving it complete and valid. */
  close(): FileClosedInfo | null;
}

/**
 * A data group that needed no repair, as whole output tags (header, body, PreviousTagSize) in `parts`, with what
 * `writeData` would have learnt from its tags. It starts with a keyframe; timestamps are output timestamps.
 */
export interface PlainGroupWrite {
  parts: readonly Uint8Array[];
  tagCount: number;
  firstTs: number;
  lastTs: number;
  videoCount: number;
  firstVideoTs: number;
  lastVideoTs: number;
}
