// Output statistics that only count what reached the file: groups the writer dropped (no headers yet) add nothing.
import type { RecordingStatsDelta } from '../flv/rules/stats.js';

/** brec's per-group delta, with its output counts zeroed when the writer wrote nothing for the group. */
export function outputOnDisk(delta: RecordingStatsDelta, written: number): RecordingStatsDelta {
  if (written > 0 || (delta.outputVideoBytes === 0 && delta.outputAudioBytes === 0)) return delta;
  return { ...delta, outputVideoFrames: 0, outputAudioFrames: 0, outputVideoBytes: 0, outputAudioBytes: 0, addedDuration: 0 };
}
