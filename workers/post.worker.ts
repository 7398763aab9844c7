// piscina task entry for post-file jobs (remux, danmaku ASS): off the recording threads and the API's event loop.
import { runPostTask, type PostTask, type PostTaskResult } from '../src/post/post-task.js';

export default function postTask(task: PostTask): PostTaskResult {
  return runPostTask(task);
}
