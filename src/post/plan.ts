// Which jobs a closed file's settings ask for, in the order they run (remux first: later steps see the MP4).
import { REMUX_MODES } from '../config/fields.js';
import type { JobKind } from './job.js';

export { REMUX_MODES };
export type RemuxMode = (typeof REMUX_MODES)[number];

export interface PostSettings {
  PostRemuxToMp4: string | null;
  PostDanmakuToAss: boolean;
  PostCommand: string | null;
  PostCommandTimeout: number;
  SaveStreamCover: boolean;
  StorageS3Url: string | null;
}

export interface PlannedJob {
  kind: JobKind;
  params: Record<string, string | boolean | number>;
}

/** The remux mode of a setting value; anything unknown is `none` (the config check reports it). */
export const remuxMode = (value: string | null): RemuxMode =>
  (REMUX_MODES as readonly string[]).includes((value ?? '').trim()) ? ((value ?? '').trim() as RemuxMode) : 'none';

/** PostCommand: the program on the first line, one argument per following line (never a shell line). */
export function commandArgv(value: string | null): string[] {
  return (value ?? '').split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
}

export function planJobs(s: PostSettings, relativePath: string): PlannedJob[] {
  const jobs: PlannedJob[] = [];
  // First: the cover the room shows while the file was recorded, as near its close as the queue allows.
  if (s.SaveStreamCover) jobs.push({ kind: 'cover', params: {} });
  const mode = remuxMode(s.PostRemuxToMp4);
  // HLS fMP4 recordings are fragmented .mp4 files: remuxing them gives the faststart layout players seek in at once.
  const remuxable = /\.(flv|ts|mp4)$/i.test(relativePath);
  if (mode !== 'none' && remuxable) jobs.push({ kind: 'remux', params: { deleteSource: mode === 'mp4-delete-source' } });
  if (s.PostDanmakuToAss) jobs.push({ kind: 'danmaku-ass', params: {} });
  const argv = commandArgv(s.PostCommand);
  if (argv.length) jobs.push({ kind: 'command', params: { argv: JSON.stringify(argv), timeoutSec: s.PostCommandTimeout } });
  // Last: what is uploaded is what the other steps left (and StorageDeleteLocal may remove it).
  if ((s.StorageS3Url ?? '').trim()) jobs.push({ kind: 'upload', params: {} });
  return jobs;
}
