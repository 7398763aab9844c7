// Faults of live-stream rooms: flv-outage (the FLV endpoint is down for a while), hls-foreign, hls-retention.
import { performance } from 'node:perf_hooks';
import type { LiveFault } from '../faults.js';
import type { SimRoom } from '../room.js';
import { SimError } from '../room-ops.js';

/** Applies the fault; returns how many open FLV responses it dropped. */
export function applyLiveFault(room: SimRoom, fault: LiveFault, now = Date.now()): number {
  const stream = room.liveStream;
  if (!stream) throw new SimError(400, `${fault.kind} needs a live-stream room (create it with "liveStream": {})`);
  switch (fault.kind) {
    case 'flv-outage': {
      stream.flvOutageUntil = now + fault.seconds * 1000;
      const open = [...room.media];
      for (const c of open) {
        if (fault.mode === 'stall') c.addFault({ kind: 'stall', count: 1, afterMs: 0 }, performance.now());
        else c.drop();
      }
      return open.length;
    }
    case 'hls-foreign':
      stream.hlsForeign = fault.on;
      stream.cache.clear();
      return 0;
    case 'hls-retention':
      stream.hlsRetentionSec = fault.seconds;
      return 0;
    case 'playlist-stall':
      stream.playlistFrozen = { until: now + fault.seconds * 1000, text: null };
      return 0;
  }
}
