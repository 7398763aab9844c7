// PostCommand: the user's program with an argument list (never a shell), the file's facts as environment, time-boxed.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { LiverecError } from '../errors.js';
import type { PostJob } from './job.js';
import type { JobContext } from './runner.js';
import { stripControlChars } from '../template/control-chars.js';

/**
 * The environment a PostCommand sees besides the service's own (documented in docs/post-processing.md). Texts from
 * the live service lose their control characters: a NUL cannot go into an environment value at all.
 */
export function commandEnv(job: PostJob, ctx: JobContext): Record<string, string> {
  const f = job.file;
  if (!f) throw new Error(`job ${job.id} has no file`);
  let size = f.FileSize;
  try {
    size = statSync(ctx.input).size;
  } catch {
    // The file may be gone (a user's retention); the recorded size still says what it was.
  }
  return {
    LIVEREC_FILE_PATH: stripControlChars(ctx.input),
    LIVEREC_SOURCE_PATH: stripControlChars(job.source),
    LIVEREC_RELATIVE_PATH: stripControlChars(f.RelativePath),
    LIVEREC_WORK_DIR: stripControlChars(ctx.workDir),
    LIVEREC_FILE_SIZE: String(size),
    LIVEREC_DURATION: String(f.Duration),
    LIVEREC_ROOM_ID: String(f.RoomId),
    LIVEREC_SHORT_ID: String(f.ShortId ?? 0),
    LIVEREC_ROOM_NAME: stripControlChars(f.Name),
    LIVEREC_TITLE: stripControlChars(f.Title),
    LIVEREC_AREA_PARENT: stripControlChars(f.AreaNameParent),
    LIVEREC_AREA_CHILD: stripControlChars(f.AreaNameChild),
    LIVEREC_SESSION_ID: stripControlChars(f.SessionId),
    LIVEREC_FILE_OPEN_TIME: stripControlChars(f.FileOpenTime),
    LIVEREC_FILE_CLOSE_TIME: stripControlChars(f.FileCloseTime),
  };
}

export function runCommand(job: PostJob, ctx: JobContext): Promise<void> {
  const argv = JSON.parse(String(job.params.argv)) as string[];
  const timeoutMs = Number(job.params.timeoutSec ?? 600) * 1000;
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      shell: false, cwd: ctx.workDir, env: { ...process.env, ...commandEnv(job, ctx) }, stdio: ['ignore', 'pipe', 'pipe'], signal: ctx.signal,
      timeout: timeoutMs > 0 ? timeoutMs : undefined, killSignal: 'SIGKILL',
    });
    // Only the program's name goes to the log: its arguments may hold a token.
    const program = argv[0]!;
    createInterface({ input: child.stdout! }).on('line', (line) => ctx.log.info({ program, stream: 'stdout' }, line));
    createInterface({ input: child.stderr! }).on('line', (line) => ctx.log.warn({ program, stream: 'stderr' }, line));
    child.once('error', (err) => reject(new LiverecError('POST_COMMAND_START', `PostCommand ${program} could not run: ${err.message}`, { cause: err })));
    child.once('close', (code, signal) => {
      if (code === 0) return resolve();
      reject(new LiverecError('POST_COMMAND_FAILED', signal
        ? `PostCommand ${program} was killed (${signal}${signal === 'SIGKILL' ? `, over PostCommandTimeout ${timeoutMs / 1000} s` : ''})`
        : `PostCommand ${program} exited with code ${code}`));
    });
  });
}
