// A post-file job: one step (remux, subtitles, command, upload…) run on a closed recording, with its durable state.
import { z } from '@hono/zod-openapi';
import type { FileClosedData } from '../events/types.js';
import type { SkippedRange } from './remux/ledger.js';

/** `notify`: one notification to one NotifyUrls target (no file: it rides the same journal, retries and listing). */
/** `clip`: a lossless clip a person asked for (POST /api/clips, src/clips/): its own one-step chain, no FileClosed. */
export const JOB_KINDS = ['cover', 'remux', 'danmaku-ass', 'command', 'upload', 'notify', 'clip'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
/** `done-with-warnings`: ended, not wholly (a remux that skipped bytes of its source: the source is kept). */
export const JOB_STATES = ['pending', 'running', 'retrying', 'done', 'done-with-warnings', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface PostJob {
  /** `<file id>:<kind>`; a file's jobs run in the order they were planned. */
  id: string;
  fileId: string;
  kind: JobKind;
  /** Index of the job in its file's chain: a job starts once every earlier one has ended. */
  step: number;
  roomId: number;
  /** Absolute path of the closed recording the chain started from ('' for a notification). */
  source: string;
  /** Kind-specific settings frozen when the file closed (a later config change does not rewrite a queued job). */
  params: Record<string, string | boolean | number>;
  state: JobState;
  attempts: number;
  createdAt: number;
  updatedAt: number;
  /** Earliest start of the next attempt (retrying). */
  dueAt: number;
  error: string | null;
  /** What the job produced (the MP4's path…), absolute. */
  output: string | null;
  /** The file's FileClosed data, for PostProcessed and the command's environment (null for a notification). */
  file: FileClosedData | null;
  /** Byte ranges of the source a remux could not copy (done-with-warnings); absent in journals of older versions. */
  skipped?: SkippedRange[] | null;
}

export const isFinished = (j: PostJob): boolean => j.state === 'done' || j.state === 'done-with-warnings' || j.state === 'failed';

export const SkippedRangeSchema = z.object({
  offset: z.number().int().openapi({ description: 'File offset of the first skipped byte in the source' }),
  bytes: z.number().int(),
  reason: z.string().openapi({ description: 'Why, e.g. flv-bad-tag, ts-pes-too-large, mp4-lost-sync' }),
}).openapi('SkippedRange');

export const PostJobSchema = z.object({
  id: z.string(),
  fileId: z.string(),
  kind: z.enum(JOB_KINDS),
  step: z.number().int(),
  roomId: z.number().int(),
  relativePath: z.string().openapi({ description: 'The recording, relative to the work directory' }),
  state: z.enum(JOB_STATES),
  attempts: z.number().int(),
  createdAt: z.string().openapi({ description: 'ISO 8601' }),
  updatedAt: z.string(),
  nextAttemptAt: z.string().nullable().openapi({ description: 'When a retrying job runs again' }),
  error: z.string().nullable(),
  output: z.string().nullable().openapi({ description: 'What the job produced, relative to the work directory' }),
  skipped: z.array(SkippedRangeSchema).nullable().openapi({ description: 'done-with-warnings remux: byte ranges of the source not copied (the first 32); the source is kept' }),
}).openapi('PostJob');
export type PostJobDto = z.infer<typeof PostJobSchema>;
