// One notification to one NotifyUrls target as a durable post-file job. The journal holds the message and the
// target's place and secret-free name; the target itself is read again from NotifyUrls at each attempt.
import type { PostJob } from '../post/job.js';
import type { JobContext, JobResult } from '../post/runner.js';
import { redactError, sendTo } from './send.js';
import { parseTargets, type Target } from './targets.js';

export interface NoticeJobParams {
  [key: string]: string | number;
  /** The target as logged and listed (no password, token or key). */
  target: string;
  /** Its line among NotifyUrls' targets when queued: two targets may share a redacted name. */
  targetIndex: number;
  title: string;
  body: string;
  /** stream-start, stream-end, recording-error, … (NotifyMessage.kind). */
  notice: string;
  /** The room, 0 for none (a test or a global notice). */
  room: number;
}

export const noticeParams = (targets: Target[], m: { title: string; body: string; kind: string; roomId: number | null }): NoticeJobParams[] =>
  targets.map((t, i) => ({ target: t.redacted, targetIndex: i, title: m.title, body: m.body, notice: m.kind, room: m.roomId ?? 0 }));

/** Sends the job's message; throws (the queue retries) when the target refuses or cannot be reached. */
export async function runNotify(job: PostJob, ctx: JobContext, notifyUrls: string | null): Promise<JobResult> {
  const p = job.params as NoticeJobParams;
  const { targets } = parseTargets(notifyUrls);
  const at = targets[p.targetIndex];
  const target = at?.redacted === p.target ? at : targets.find((t) => t.redacted === p.target);
  if (!target) {
    // Removed from the settings since: the user no longer wants messages there.
    ctx.log.warn({ target: p.target }, 'notification target is no longer in NotifyUrls; not sent');
    return {};
  }
  try {
    await sendTo(target, { title: p.title, body: p.body, kind: p.notice, roomId: p.room || null }, undefined, ctx.signal);
  } catch (err) {
    throw new Error(`${p.target}: ${redactError(err, target)}`);
  }
  ctx.log.info({ roomId: p.room || null, kind: p.notice, target: p.target }, 'notification sent');
  return {};
}
