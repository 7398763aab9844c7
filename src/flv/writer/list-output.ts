// In-memory output: each "file" is a list of tags (brec's test-mode writer), or just tag counts for analyze.
import type { AmfMap } from '../metadata.js';
import type { FlvTag } from '../tag.js';
import { makeMetaDataTag } from '../rules/handle-new-script.js';
import type { FileClosedInfo, FlvOutput } from './output.js';

/** A text-log entry: the duration (s) written so far and the message, as brec's tests record them. */
export interface ListLogEntry { duration: number; message: string }

/**
 * Files as tag lists (for XML outputs and tests) or, with `keepTags: false`, only per-file tag counts
 * (for `tool analyze`). Tags are kept by reference. Unlike brec's list writer, each file gets its own
 * copy of onMetaData, so every file's `duration` is its own rather than the last file's.
 */
export class FlvListOutput implements FlvOutput {
  readonly files: FlvTag[][] = [];
  readonly tagCounts: number[] = [];
  readonly logs: ListLogEntry[] = [];
  isOpen = false;
  bytesWritten = 0;
  private current: FlvTag[] | null = null;
  private meta: AmfMap | null = null;
  private duration = 0;

  constructor(private readonly keepTags = true) {}

  open(metadata: AmfMap, videoHeader: FlvTag | null, audioHeader: FlvTag | null): void {
    this.close();
    this.meta = new Map(metadata);
    this.meta.set('duration', { type: 'Number', value: 0 });
    this.duration = 0;
    this.isOpen = true;
    this.tagCounts.push(0);
    this.current = this.keepTags ? [] : null;
    if (this.current) this.files.push(this.current);
    this.add(makeMetaDataTag(this.meta));
    if (videoHeader) this.add(videoHeader);
    if (audioHeader) this.add(audioHeader);
  }

  writeData(tags: readonly FlvTag[]): void {
    for (const t of tags) this.add(t);
    this.duration = tags[tags.length - 1]!.timestamp / 1000;
    this.meta!.set('duration', { type: 'Number', value: this.duration });
  }

  writeEnd(tag: FlvTag): void {
    this.add(tag);
  }

  log(message: string, duration: number): void {
    this.logs.push({ duration, message });
  }

  close(): FileClosedInfo | null {
    if (!this.isOpen) return null;
    this.isOpen = false;
    this.current = null;
    return { path: `#${this.tagCounts.length}`, size: -1, duration: this.duration };
  }

  private add(tag: FlvTag): void {
    this.tagCounts[this.tagCounts.length - 1]!++;
    this.current?.push(tag);
  }
}
