// The rooms as /api/events (SSE) tells them: `room` frames set a room, `room-removed` drops it; nothing else is kept.
import { request, type ClientRequest } from 'node:http';

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
  private req: ClientRequest | null = null;
  private buf = '';
  connected = false;
  frames = 0;
  /** Frames that carried a secret (what `secrets` answered when the frame came). */
  readonly leaks: string[] = [];
  private secrets: () => string[] = () => [];

  /** `secrets`: cookie and token values no frame may carry (every frame is checked as it comes, then dropped). */
  static connect(base: string, secrets?: () => string[]): Promise<SseView> {
    const v = new SseView();
    if (secrets) v.secrets = secrets;
    return new Promise((resolve, reject) => {
      v.req = request(`${base}/api/events`, { headers: { accept: 'text/event-stream' } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`/api/events answered ${res.statusCode}`));
        v.connected = true;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => v.feed(chunk));
        res.on('error', () => (v.connected = false));
        res.on('close', () => (v.connected = false));
        resolve(v);
      });
      v.req.on('error', reject);
      v.req.end();
    });
  }

  /** Rooms listed by REST after the stream connected: the state of rooms no frame has named yet. */
  seed(rooms: SseRoom[]): void {
    for (const r of rooms) if (!this.framed.has(r.roomId)) this.rooms.set(r.roomId, r);
  }

  private feed(chunk: string): void {
    this.buf += chunk;
    let end: number;
    while ((end = this.buf.indexOf('\n\n')) >= 0) {
      const block = this.buf.slice(0, end);
      this.buf = this.buf.slice(end + 2);
      let event = 'message';
      let data = '';
      for (const secret of this.secrets()) if (secret.length >= 8 && block.includes(secret)) this.leaks.push(`a secret (${secret.slice(0, 4)}…) in an /api/events frame`);
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (event !== 'room' && event !== 'room-removed') continue;
      this.frames++;
      const d = JSON.parse(data) as SseRoom;
      this.framed.add(d.roomId);
      if (event === 'room') {
        // A room added by a short id the API could not resolve is renamed to its real id later: same object.
        for (const [k, v] of this.rooms) if (v.objectId === d.objectId && k !== d.roomId) this.rooms.delete(k);
        this.rooms.set(d.roomId, { objectId: d.objectId, roomId: d.roomId, autoRecord: d.autoRecord, recording: d.recording, streaming: d.streaming });
      }
      // A removal names the room object: a re-add announced in the same tick (before the removal) stays.
      else if (this.rooms.get(d.roomId)?.objectId === d.objectId) this.rooms.delete(d.roomId);
    }
  }

  close(): void {
    this.req?.destroy();
    this.connected = false;
  }
}
