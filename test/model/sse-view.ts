// The rooms as /api/events (SSE) tells them: `room` frames set a room, `room-removed` drops it; nothing else is kept.
import { type SseFrame, SseClient } from '../web/sse-client.js';

export interface SseRoom {
  objectId: string;
  roomId: number;
  autoRecord: boolean;
  recording: boolean;
  streaming: boolean;
}

export class SseView {
  readonly rooms = new Map<number, SseRoom>();
  /** Rooms a frame named since the view connected (the REST seed does not overwrite those). */
  private readonly framed = new Set<number>();
  private client: SseClient | null = null;
  frames = 0;
  /** Frames that carried a secret (what `secrets` answered when the frame came). */
  readonly leaks: string[] = [];
  private secrets: () => string[] = () => [];

  /** `secrets`: cookie and token values no frame may carry (every frame is checked as it comes, then dropped). */
  static async connect(base: string, secrets?: () => string[]): Promise<SseView> {
    const v = new SseView();
    if (secrets) v.secrets = secrets;
    v.client = await SseClient.connect(`${base}/api/events`, {}, { keep: false, onFrame: (f) => v.apply(f) });
    if (v.client.status !== 200) {
      v.close();
      throw new Error(`/api/events answered ${v.client.status}`);
    }
    return v;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** Rooms listed by REST after the stream connected: the state of rooms no frame has named yet. */
  seed(rooms: SseRoom[]): void {
    for (const r of rooms) if (!this.framed.has(r.roomId)) this.rooms.set(r.roomId, r);
  }

  private apply(f: SseFrame): void {
    for (const secret of this.secrets()) if (secret.length >= 8 && (f.event + f.data).includes(secret)) this.leaks.push(`a secret (${secret.slice(0, 4)}…) in an /api/events frame`);
    if (f.event !== 'room' && f.event !== 'room-removed') return;
    this.frames++;
    const d = JSON.parse(f.data) as SseRoom;
    this.framed.add(d.roomId);
    if (f.event === 'room') {
      // A room added by a short id the API could not resolve is renamed to its real id later: same object.
      for (const [k, v] of this.rooms) if (v.objectId === d.objectId && k !== d.roomId) this.rooms.delete(k);
      this.rooms.set(d.roomId, { objectId: d.objectId, roomId: d.roomId, autoRecord: d.autoRecord, recording: d.recording, streaming: d.streaming });
    }
    // A removal names the room object: a re-add announced in the same tick (before the removal) stays.
    else if (this.rooms.get(d.roomId)?.objectId === d.objectId) this.rooms.delete(d.roomId);
  }

  close(): void {
    this.client?.close();
  }
}
