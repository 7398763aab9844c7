// One SSE client: a byte stream with a bounded queue; a client that cannot keep up is closed (it resumes by Last-Event-ID).
import type { BufferedFrame } from './event-buffer.js';

/** Bytes a client may have queued before it is dropped; its EventSource reconnects and resumes. */
export const CLIENT_QUEUE_BYTES = 1024 * 1024;

const encoder = new TextEncoder();

export class EventClient {
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  private closed = false;

  constructor(readonly roomId: number | null, private readonly onClose: () => void) {}

  open(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        cancel: () => this.finish(),
      },
      { highWaterMark: CLIENT_QUEUE_BYTES, size: (chunk) => chunk.byteLength },
    );
  }

  /** Whether a frame concerns this client's room (or every room). */
  wants(frame: BufferedFrame): boolean {
    return this.roomId === null || frame.roomId === null || frame.roomId === this.roomId;
  }

  /** Sends a frame if it concerns this client's room (or every room). */
  offer(frame: BufferedFrame, replay = false): void {
    if (!this.wants(frame)) return;
    this.send(frame.frame, replay);
  }

  /**
   * `replay` frames are queued whatever the backlog: the hub replays at most CLIENT_QUEUE_BYTES, and dropping a client
   * in the middle of it would make its EventSource reconnect with the same id and replay again, forever.
   */
  send(text: string, replay = false): void {
    const c = this.controller;
    if (this.closed || !c) return;
    if (!replay && (c.desiredSize ?? 0) <= 0) {
      this.close();
      return;
    }
    c.enqueue(encoder.encode(text));
  }

  close(): void {
    if (this.closed) return;
    try {
      this.controller?.close();
    } catch {
      // Already cancelled by the reader.
    }
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
  }
}
