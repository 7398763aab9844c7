// Bounded in-memory buffer of the SSE frames that can be resumed with Last-Event-ID (lifecycle and room changes).
import { sseFrame } from './sse-frame.js';

export interface BufferedFrame {
  id: number;
  frame: string;
  /** The room the frame is about (null = every room), for per-room subscriptions. */
  roomId: number | null;
}

/** Bytes (UTF-16 code units, as held) the buffer keeps at most, whatever its frame count: 2000 frames of 50 KB titles were 100 MB. */
export const EVENT_BUFFER_BYTES = 8 * 1024 * 1024;

/*
 * Why a frame may be held as its data rather than its text: 5000 rooms announce their titles after a start, and
 * 2000 room frames of ~1 KB JSON each (two bytes a character once a title is Chinese) were 4-5 MB of an idle
 * process. The data objects share the room's strings and the idle rooms' stats objects, and JSON.stringify of
 * data that is never mutated gives the same text at replay as at publication.
 */
class DataFrame implements BufferedFrame {
  constructor(readonly id: number, readonly roomId: number | null, private readonly event: string, private readonly data: unknown, readonly length: number) {}

  get frame(): string {
    return sseFrame(this.event, this.data, this.id);
  }
}

interface Held {
  entry: BufferedFrame;
  length: number;
}

export class EventBuffer {
  /** Held frames are frames[start…]; the array is compacted once half of it is evicted. */
  private frames: Held[] = [];
  private start = 0;
  private lastId = 0;
  private held = 0;

  constructor(readonly capacity: number, readonly maxBytes = EVENT_BUFFER_BYTES) {}

  /** Appends a frame built for the next id; returns that id. Oldest frames go when over the count or byte bound. */
  push(build: (id: number) => string, roomId: number | null): BufferedFrame {
    const id = ++this.lastId;
    const entry = { id, frame: build(id), roomId };
    this.hold({ entry, length: entry.frame.length });
    return entry;
  }

  /**
   * Appends an SSE frame of `data` (never mutated afterwards) for the next id and keeps the data, not the text.
   * Returns the frame with its text, for the clients connected now.
   */
  pushData(event: string, data: unknown, roomId: number | null): BufferedFrame {
    const id = ++this.lastId;
    const frame = sseFrame(event, data, id);
    this.hold({ entry: new DataFrame(id, roomId, event, data, frame.length), length: frame.length });
    return { id, frame, roomId };
  }

  private hold(held: Held): void {
    this.frames.push(held);
    this.held += held.length;
    while (this.frames.length - this.start > this.capacity || (this.held > this.maxBytes && this.frames.length - this.start > 1)) {
      this.held -= this.frames[this.start]!.length;
      this.frames[this.start++] = undefined as unknown as Held;
    }
    if (this.start > 1024 && this.start * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.start);
      this.start = 0;
    }
  }

  get newestId(): number {
    return this.lastId;
  }

  /** The oldest id still held (newestId + 1 when empty). */
  get oldestId(): number {
    return this.frames.length === this.start ? this.lastId + 1 : this.frames[this.start]!.entry.id;
  }

  /** Bytes held (UTF-16 code units of the frames). */
  get bytes(): number {
    return this.held;
  }

  /**
   * Frames after `id`, oldest first; null when some were already evicted (or `id` is from another run),
   * so the caller can tell the client to reload instead of silently losing events.
   */
  after(id: number): BufferedFrame[] | null {
    if (id > this.lastId || id < this.oldestId - 1) return null;
    const out: BufferedFrame[] = [];
    for (let k = this.start; k < this.frames.length; k++) {
      const e = this.frames[k]!.entry;
      if (e.id > id) out.push(e);
    }
    return out;
  }
}
