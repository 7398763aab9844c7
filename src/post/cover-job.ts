// SaveStreamCover: the room's cover image (getInfoByRoom room_info.cover) saved beside the recording as <name>.cover.<ext>.
import { writeFileSync } from 'node:fs';
import { BilibiliApiClient } from '../bilibili/api-client.js';
import type { RoomSettings } from '../config/fields.js';
import { LiverecError } from '../errors.js';
import { clientOptionsFrom } from '../rooms/client-settings.js';
import type { PostJob } from './job.js';
import type { JobContext, JobResult } from './runner.js';

/** brec's download budget per attempt; the queue's retries give the three attempts. */
const TIMEOUT_MS = 10_000;
const MAX_BYTES = 16 * 1024 * 1024;
const EXT: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif', 'image/avif': 'avif' };

export async function runCover(job: PostJob, ctx: JobContext, settings: RoomSettings): Promise<JobResult> {
  const client = new BilibiliApiClient(clientOptionsFrom(settings));
  const info = await client.getRoomInfo(job.roomId, ctx.signal);
  if (!info.cover) {
    ctx.log.info('the room has no cover; none saved');
    return {};
  }
  const res = await fetch(info.cover, { signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(TIMEOUT_MS)]) });
  if (!res.ok) throw new LiverecError('POST_COVER_HTTP', `cover download answered HTTP ${res.status}`);
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const ext = EXT[type] ?? /\.(jpe?g|png|webp|gif|avif)(\?|$)/i.exec(info.cover)?.[1]?.toLowerCase().replace('jpeg', 'jpg');
  if (!ext) throw new LiverecError('POST_COVER_TYPE', `the cover is not an image (${type || 'no content type'})`);
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length === 0 || body.length > MAX_BYTES) throw new LiverecError('POST_COVER_SIZE', `the cover has ${body.length} bytes`);
  const output = `${job.source.replace(/\.[^./\\]+$/, '')}.cover.${ext}`;
  writeFileSync(output, body);
  return { output };
}
