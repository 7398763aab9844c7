// Tells periodic work which rooms changed (state, stats, listed, removed), so it touches those and not every room.
import type { Room } from './room.js';

/*
 * Why a push feed and not a scan: with 5000 idle rooms, a 4-per-second scan of every room (the event stream's
 * change check) and 1-per-second samplers cost more CPU than everything else while nothing records. Each
 * consumer keeps its own set of rooms to look at and empties it on its own tick.
 */
export type RoomChange =
  /** A field of room.state (or the entry's roomId/autoRecord) changed; `keys` names them ('roomId', 'autoRecord' included). */
  | { kind: 'state'; keys: readonly string[] }
  /** New recordingStats/ioStats arrived from the actor (or were reset). */
  | { kind: 'stats' }
  | { kind: 'added' }
  | { kind: 'removed' };

export type RoomChangeListener = (room: Room, change: RoomChange) => void;

export class RoomChanges {
  private readonly listeners = new Set<RoomChangeListener>();

  on(listener: RoomChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(room: Room, change: RoomChange): void {
    for (const l of this.listeners) {
      try {
        l(room, change);
      } catch {
        // A consumer owns its errors; the room's update must reach the others.
      }
    }
  }
}
