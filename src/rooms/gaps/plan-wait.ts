// Waits for the HLS window to show where a new connection meets the file (reaching back as needed), then gives the plan.
import type { HlsFrameSource } from '../../hls/backfill/hls-frame-source.js';
import { type FlvTag, TagType, isData } from '../../flv/tag.js';
import { tagKey, type MediaFrame } from './frames.js';
import { planSplice, type Plan, type Splice, type WrittenEnd } from './splice-plan.js';

/** How long a new connection's frames wait for the HLS window to show where they start. */
const ALIGN_WAIT_MS = 10_000;
/** Target durations a late start waits, after the first HLS frames arrived, for its first keyframe to show in the window. */
const LATE_START_WAIT_TARGETS = 2.5;

export interface PlanWait {
  end: WrittenEnd;
  /** The new connection's first keyframe, and every tag it held back so far (read again on each try). */
  keyframe: FlvTag;
  held: () => readonly FlvTag[];
  /** null: no HLS (a plan from the timestamps alone). */
  source: HlsFrameSource | null;
  droppedAt: number;
  maxBackMs: number;
  /** Decide now with what there is (the connection ended, the recorder stops, too much is held). */
  hurry: () => boolean;
}

export async function waitForPlan(w: PlanWait): Promise<Splice> {
  const { source } = w;
  if (!source) return once(w, true, false, true) as Splice;
  const started = Date.now();
  let canReachBack = true;
  const keys = new WeakMap<MediaFrame, string>(); // each frame hashed once however many tries it takes
  for (;;) {
    const last = w.hurry() || source.broken || Date.now() - started > Math.max(ALIGN_WAIT_MS, 4 * source.targetDurationMs)
      || (w.end.video === null && lateStartGiveUp(source));
    const p = once(w, last, canReachBack, false, keys);
    if (p.kind === 'splice') return p;
    if (p.kind === 'older') canReachBack = await source.older();
    else await source.idle(source.targetDurationMs / 2).then(() => source.refresh());
  }
}

/**
 * A late start holds the first frames back only briefly: the keyframe a new connection starts with is listed in
 * HLS within a couple of segments, and when the window does not show it by then, the recording starts without.
 */
function lateStartGiveUp(source: HlsFrameSource): boolean {
  return source.framesSince > 0 && Date.now() - source.framesSince > LATE_START_WAIT_TARGETS * source.targetDurationMs;
}

function once(w: PlanWait, final: boolean, canReachBack: boolean, noHls = false, keys?: WeakMap<MediaFrame, string>): Plan {
  const K = w.keyframe;
  const firstAudio = w.held().find((t) => t.type === TagType.Audio && isData(t) && t.timestamp >= K.timestamp);
  return planSplice({
    end: w.end, start: { ts: K.timestamp, key: tagKey(K), firstAudioTs: firstAudio?.timestamp ?? null }, hls: noHls ? [] : w.source?.frames() ?? [],
    hevc: (K.data![0]! & 0x0f) === 12, final, canReachBack, wallGapMs: Date.now() - w.droppedAt, maxBackMs: w.maxBackMs, keys,
  });
}

/** What the file ends with: the open group's last video frame (and the keys of all its frames), its last audio frame. */
export function writtenEnd(pending: readonly FlvTag[], defaultFrameMs: number): WrittenEnd {
  const video = pending.filter((t) => t.type === TagType.Video && isData(t));
  const last = video.at(-1);
  const audioTs = pending.filter((t) => t.type === TagType.Audio && isData(t)).at(-1)?.timestamp ?? null;
  if (!last) return { video: null, audioTs, recent: new Map(), frameMs: defaultFrameMs };
  const frameMs = video.length >= 2 ? Math.max(1, last.timestamp - video.at(-2)!.timestamp) : defaultFrameMs;
  return { video: { ts: last.timestamp, key: tagKey(last) }, audioTs, recent: new Map(video.map((t) => [tagKey(t), t.timestamp])), frameMs };
}
