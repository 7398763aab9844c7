// The job runner of the service: each job kind to its step (pool thread for CPU work, a child process for PostCommand).
import { existsSync } from 'node:fs';
import type { RoomSettings } from '../config/fields.js';
import { runNotify } from '../notify/notify-job.js';
import { runCommand } from './command-job.js';
import { runCover } from './cover-job.js';
import type { StorageSettings } from '../storage/upload-job.js';
import type { PostJob } from './job.js';
import { runOnPool } from './pool.js';
import { runRemux } from './remux-job.js';
import { runClip } from '../clips/clip-job.js';
import type { JobContext, JobResult, JobRunner } from './runner.js';

const base = (path: string): string => path.replace(/\.[^./\\]+$/, '');

async function danmakuAss(job: PostJob, ctx: JobContext): Promise<JobResult> {
  // The XML is written beside the recording, so it keeps the source's name after a remux.
  const xml = `${base(job.source)}.xml`;
  if (!existsSync(xml)) {
    ctx.log.info({ xml }, 'no danmaku XML beside the file; no ASS written');
    return {};
  }
  const output = `${base(ctx.input)}.ass`;
  await runOnPool({ kind: 'danmaku-ass', xml, output }, ctx.signal);
  return { output };
}

/** The service's runner; `roomSettings` gives the API client settings for the cover step, `notifyUrls` NotifyUrls now. */
export function createServiceRunner(roomSettings: (roomId: number) => RoomSettings, storage: () => StorageSettings, notifyUrls: () => string | null = () => null): JobRunner {
  return {
    run: (job, ctx) => {
      // Read when the job runs, never journaled: the URLs hold passwords and tokens.
      if (job.kind === 'notify') return runNotify(job, ctx, notifyUrls());
      if (job.kind === 'cover') return runCover(job, ctx, roomSettings(job.roomId));
      // Read when the job runs, never journaled: the URL holds the secret key.
      // Loaded on the first upload: the S3 SDK costs ~6 MB of heap in a process that may never upload.
      if (job.kind === 'upload') {
        const settings = storage();
        return import('../storage/upload-job.js').then((m) => m.runUpload(job, ctx, settings));
      }
      return serviceRunner.run(job, ctx);
    },
  };
}

/** The runner of every kind that needs no room settings. */
export const serviceRunner: JobRunner = {
  async run(job, ctx) {
    switch (job.kind) {
      case 'cover': case 'upload': case 'notify': throw new Error(`the ${job.kind} step needs createServiceRunner`);
      case 'remux': return runRemux(job, ctx);
      case 'danmaku-ass': return danmakuAss(job, ctx);
      case 'clip': return runClip(job, ctx);
      case 'command':
        await runCommand(job, ctx);
        return {};
    }
  },
};
