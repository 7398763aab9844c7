// How each recordingStats / ioStats field reads on the Room detail page: the unit its raw value is in, shown in human form.
import { bitrate, bytes, count, dateTime, DASH, diskRate, duration, pace } from './format';
import type { Wire } from './types';

type Kind = 'bytes' | 'ms' | 'count' | 'pace' | 'bitrate' | 'diskRate' | 'time' | 'text';

const KINDS: Record<string, Kind> = {
  sessionDuration: 'ms', sessionMaxTimestamp: 'ms', fileMaxTimestamp: 'ms', addedDuration: 'ms', passedTime: 'ms',
  duration: 'ms', diskWriteDuration: 'ms',
  durationRatio: 'pace', networkMbps: 'bitrate', diskMBps: 'diskRate',
  outputVideoFrames: 'count', outputAudioFrames: 'count', totalOutputVideoFrames: 'count', totalOutputAudioFrames: 'count',
  startTime: 'time', endTime: 'time', streamHost: 'text',
};

/** Fields not listed are byte counts (every other brec stat is). */
export function formatStat(field: string, value: unknown): string {
  const kind = KINDS[field] ?? (typeof value === 'number' ? 'bytes' : 'text');
  const n = typeof value === 'number' ? value : Number.NaN;
  switch (kind) {
    case 'bytes': return bytes(n);
    case 'ms': return duration(n);
    case 'count': return count(n);
    case 'pace': return pace(value as Wire);
    case 'bitrate': return bitrate(value as Wire);
    case 'diskRate': return diskRate(value as Wire);
    case 'time': return dateTime(value as string);
    default: return value === null || value === undefined || value === '' ? DASH : String(value);
  }
}
