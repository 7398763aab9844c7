// One reader of a room's live preview: a byte stream with a bounded queue; a reader that falls behind is dropped.
/** Bytes a viewer may have queued beyond its start (the head and one GOP, always sent) before it is dropped. */
export const VIEWER_QUEUE_BYTES = 8 * 1024 * 1024;

export class PreviewViewer {
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  private closed = false;
  /** Sent the head and a keyframe: live bytes may follow. */
  started = false;
  /** Why the viewer ended: 'slow' when dropped for its backlog. */
  endReason: 'slow' | 'end' | 'gone' | null = null;

  constructor(private readonly onClose: (v: PreviewViewer) => void, private readonly queueBytes = VIEWER_QUEUE_BYTES) {}

  open(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        cancel: () => this.finish('gone'),
      },
      { highWaterMark: this.queueBytes, size: (chunk) => chunk.byteLength },
    );
  }

  /** The head and the GOP so far: queued whatever the backlog (the bound is for what follows). */
  start(parts: readonly Uint8Array[]): void {
    if (this.closed || !this.controller) return;
    for (const p of parts) this.controller.enqueue(p.slice());
    this.started = true;
  }

  /** Live bytes; a viewer whose queue is full is dropped (the recording never waits for it). */
  send(bytes: Uint8Array): void {
    const c = this.controller;
    if (this.closed || !c || !this.started) return;
    if ((c.desiredSize ?? 0) <= 0) {
      this.close('slow');
      return;
    }
    c.enqueue(bytes);
  }

  close(reason: 'slow' | 'end' = 'end'): void {
    if (this.closed) return;
    try {
      this.controller?.close();
    } catch {
      // Already cancelled by the reader.
    }
    this.finish(reason);
  }

  private finish(reason: 'slow' | 'end' | 'gone'): void {
    if (this.closed) return;
    this.closed = true;
    this.endReason = reason;
    this.onClose(this);
  }
}
