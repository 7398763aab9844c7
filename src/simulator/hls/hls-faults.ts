// Arms the HLS faults on a room's live timelines (both formats it offers), effective from the next segment.
import type { HlsFault } from '../faults.js';
import type { SimRoom } from '../room.js';
import type { HlsFormat } from './hls-clips.js';
import { timelineOf } from './hls-timeline.js';

/** Returns how many timelines the fault was applied to. */
export function applyHlsFault(room: SimRoom, fault: HlsFault): number {
  // HLS faults act on the clip timeline: a room on one clock by default leaves it (one asked for explicitly keeps it,
  // and its fMP4 ignores these faults as before).
  if (room.liveStreamByDefault) room.liveStream = null;
  const formats = (['fmp4', 'ts'] as HlsFormat[]).filter((f) => room.formats.includes(f));
  const now = Date.now();
  const timelines = formats.map((f) => timelineOf(room, f));
  if (room.hevc && formats.includes('fmp4')) timelines.push(timelineOf(room, 'fmp4', true));
  for (const tl of timelines) {
    switch (fault.kind) {
      case 'segment-404': {
        const next = tl.liveIndex(now) + 1;
        for (let i = 0; i < fault.count; i++) tl.missing.add(next + i);
        break;
      }
      case 'playlist-stale': tl.staleArmed += fault.count; break;
      case 'init-change': tl.switchClip(now); break;
      case 'sequence-reset': tl.resetSequence(now); break;
      case 'slow-segment': tl.slow.push({ remaining: fault.count, delayMs: fault.delayMs }); break;
      case 'playlist-404': tl.playlist404 += fault.count; break;
      case 'segment-corrupt': tl.corrupt += fault.count; break;
    }
  }
  return timelines.length;
}
