// piscina task entry for post-file jobs (remux, danmaku ASS): off the recording threads and the API's event loop.
import { toPlainError } from '../src/errors.js';
import { runPostTask, type PostTask, type PostTaskOutcome } from '../src/post/post-task.js';

/** A thrown error comes back as a plain value: a thread boundary would drop its `code` (structured clone keeps the message only). */
export default function postTask(task: PostTask): PostTaskOutcome {
  try {
    return { ok: runPostTask(task) };
  } catch (err) {
    return { error: toPlainError(err) };
  }
}
