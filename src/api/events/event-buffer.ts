// Bounded in-memory buffer of the SSE frames that can be resumed with Last-Event-ID (lifecycle and room changes).

export interface BufferedFrame {
  id: number;
  frame: string;
  /** The room the frame is about (null = every room), for per-room subscriptions. */
  roomId: number | null;
}

export class EventBuffer {
  private readonly frames: BufferedFrame[] = [];
  private head = 0;
  private lastId = 0;

  constructor(readonly capacity: number) {}

  /** Appends a frame built for the next id; returns that id. */
  push(build: (id: number) => string, roomId: number | null): BufferedFrame {
    const id = ++this.lastId;
    const entry = { id, frame: build(id), roomId };
    if (this.frames.length < this.capacity) this.frames.push(entry);
    else {
      this.frames[this.head] = entry;
      this.head = (this.head + 1) % this.capacity;
    }
    return entry;
  }

  get newestId(): number {
    return this.lastId;
  }

  /** The oldest id still held (newestId + 1 when empty). */
  get oldestId(): number {
    return this.frames.length === 0 ? this.lastId + 1 : this.frames[this.head].id;
  }

  /**
   * Frames after `id`, oldest first; null when some were already evicted (or `id` is from another run),
   * so the caller can tell the client to reload instead of silently losing events.
   */
  after(id: number): BufferedFrame[] | null {
    if (id > this.lastId || id < this.oldestId - 1) return null;
    const out: BufferedFrame[] = [];
    for (let k = 0; k < this.frames.length; k++) {
      const e = this.frames[(this.head + k) % this.frames.length];
      if (e.id > id) out.push(e);
    }
    return out;
  }
}
