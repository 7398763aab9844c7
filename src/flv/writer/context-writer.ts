// The writer state machine: turns processed actions into output files (lazy open, shared script, headers).
import { FlvError } from '../errors.js';
import type { AmfMap } from '../metadata.js';
import type { PipelineAction } from '../pipeline/actions.js';
import type { FlvTag } from '../tag.js';
import type { FlvOutput, PlainGroupWrite } from './output.js';

export interface FlvContextWriterOptions {
  /** When false (the recorder's setting), opening a file without both AVC and AAC headers throws MISSING_HEADER. */
  allowMissingHeader?: boolean;
}

/**
 * brec's FlvProcessingContextWriter. NewFile closes the current file and defers opening until data (or
 * an End tag) arrives; Script and Header actions only store what the next file starts with, and those
 * stay stored across files. Disconnect is ignored here (the caller ends the session). After an error
 * every call throws WRITER_FAILED; `close()` still finishes the file on disk.
 */
export class FlvContextWriter {
  private script: AmfMap | null = null;
  private videoHeader: FlvTag | null = null;
  private audioHeader: FlvTag | null = null;
  private failed: unknown = null;
  private lastDuration = 0;
  private readonly allowMissingHeader: boolean;

  constructor(readonly output: FlvOutput, options: FlvContextWriterOptions = {}) {
    this.allowMissingHeader = options.allowMissingHeader ?? false;
  }

  /** Applies one processed group's actions; returns the bytes written by this call. */
  write(actions: readonly PipelineAction[]): number {
    if (this.failed) throw new FlvError('WRITER_FAILED', 'The writer failed earlier and accepts no more data.', { cause: this.failed });
    const before = this.output.bytesWritten;
    try {
      for (const a of actions) this.apply(a);
    } catch (err) {
      this.failed = err;
      throw err;
    }
    return this.output.bytesWritten - before;
  }

  /** Whether the output takes plain groups in output form (`writePlain`). */
  get takesPlainGroups(): boolean {
    return typeof this.output.writePlain === 'function';
  }

  /** What `write` does for a Data action, for a plain group already in output form; returns the bytes written. */
  writePlain(g: PlainGroupWrite): number {
    if (this.failed) throw new FlvError('WRITER_FAILED', 'The writer failed earlier and accepts no more data.', { cause: this.failed });
    const before = this.output.bytesWritten;
    try {
      this.ensureOpen();
      this.output.writePlain!(g);
      this.lastDuration = g.lastTs / 1000;
    } catch (err) {
      this.failed = err;
      throw err;
    }
    return this.output.bytesWritten - before;
  }

  /** Closes the current file (idempotent). */
  close(): void {
    this.output.close();
  }

  /** The metadata map the next file will start with (shared with the session; read-only for callers). */
  get nextMetadata(): AmfMap | null {
    return this.script;
  }

  private apply(a: PipelineAction): void {
    switch (a.kind) {
      case 'NewFile':
        this.output.close();
        break;
      case 'Script': {
        const v = a.tag.script?.[1];
        this.script = v && (v.type === 'EcmaArray' || v.type === 'Object') ? v.value : null;
        break;
      }
      case 'Header':
        if (a.videoHeader) this.videoHeader = a.videoHeader;
        if (a.audioHeader) this.audioHeader = a.audioHeader;
        break;
      case 'Data':
        if (a.tags.length === 0) break;
        this.ensureOpen();
        this.output.writeData(a.tags);
        this.lastDuration = a.tags[a.tags.length - 1]!.timestamp / 1000;
        break;
      case 'End':
        this.ensureOpen();
        this.output.writeEnd(a.tag);
        break;
      case 'LogMessageWithLocation':
        this.output.log(a.message, this.lastDuration);
        break;
      case 'Disconnect':
        break;
    }
  }

  private ensureOpen(): void {
    if (this.output.isOpen) return;
    if (!this.allowMissingHeader && (!this.videoHeader || !this.audioHeader)) {
      throw new FlvError('MISSING_HEADER', `Cannot start a file without ${this.videoHeader ? 'an audio' : 'a video'} sequence header.`);
    }
    this.output.open(this.script ?? new Map(), this.videoHeader, this.audioHeader);
  }
}
