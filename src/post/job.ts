// A post-file job: one step (remux, subtitles, command, upload…) run on a closed recording, with its durable state.
import { z } from '@hono/zod-openapi';
import type { FileClosedData } from '../events/types.js';

/** `notify`: one notification to one NotifyUrls target (no file: it rides the same journal, retries and listing). */
/** `clip`: a lossless clip a person asked for (POST /api/clips, src/clips/): its own one-step chain, no FileClosed. */
export const JOB_KINDS = ['cover', 'remux', 'danmaku-ass', 'command', 'upload', 'notify', 'clip'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_STATES = ['pending', 'running', 'retrying', 'done', 'failed'] as const;
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
}

export const isFinished = (j: PostJob): boolean => j.state === 'done' || j.state === 'failed';

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
}).openapi('PostJob');
export type PostJobDto = z.infer<typeof PostJobSchema>;
