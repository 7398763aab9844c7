// Which rooms this node should claim or give up: least-loaded by capacity, ties broken by rendezvous hashing.
import { createHash } from 'node:crypto';
import type { ClusterSnapshot } from './leases.js';

export interface Plan {
  claim: number[];
  release: number[];
}

function score(roomId: number, nodeId: string): number {
  return createHash('sha1').update(`${roomId}\0${nodeId}`).digest().readUInt32BE(0);
}

/**
 * Every node computes the same plan from the same snapshot, so free rooms spread without a coordinator: each free
 * room goes to the live node with the lowest load fraction. Recording rooms never move while their node lives;
 * idle rooms above this node's fair share are released for nodes below theirs (a node that joined).
 */
export function planFor(me: string, snap: ClusterSnapshot): Plan {
  const live = snap.nodes.filter((n) => n.alive);
  const load = new Map(live.map((n) => [n.nodeId, 0]));
  for (const lease of snap.leases.values()) if (lease.live && load.has(lease.nodeId)) load.set(lease.nodeId, load.get(lease.nodeId)! + 1);
  const cap = new Map(live.map((n) => [n.nodeId, Math.max(1, n.maxRooms)]));
  const totalCap = live.reduce((s, n) => s + cap.get(n.nodeId)!, 0);
  const fair = (nodeId: string) => Math.min(cap.get(nodeId)!, Math.ceil((snap.rooms.length * cap.get(nodeId)!) / Math.max(1, totalCap)));

  const claim: number[] = [];
  for (const roomId of snap.rooms) {
    const lease = snap.leases.get(roomId);
    if (lease?.live) continue;
    let best: string | null = null;
    for (const n of live) {
      const id = n.nodeId;
      if (load.get(id)! >= cap.get(id)!) continue;
      if (best === null) { best = id; continue; }
      const a = load.get(id)! / cap.get(id)!;
      const b = load.get(best)! / cap.get(best)!;
      if (a < b || (a === b && score(roomId, id) > score(roomId, best))) best = id;
    }
    if (best === null) continue;
    load.set(best, load.get(best)! + 1);
    if (best === me) claim.push(roomId);
  }

  const release: number[] = [];
  if (load.has(me)) {
    const someoneShort = live.some((n) => n.nodeId !== me && load.get(n.nodeId)! < fair(n.nodeId));
    let excess = load.get(me)! - fair(me);
    if (someoneShort) {
      for (const lease of snap.leases.values()) {
        if (excess <= 0) break;
        if (lease.live && lease.nodeId === me && !snap.recording.has(lease.roomId) && !claim.includes(lease.roomId)) {
          release.push(lease.roomId);
          excess--;
        }
      }
    }
  }
  return { claim, release };
}
