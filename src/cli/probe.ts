// Optional ffprobe check for the demo summary: uses the devDependency when it is installed, says so when not.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function ffprobePath(): string | null {
  try {
    return (require('@ffprobe-installer/ffprobe') as { path: string }).path;
  } catch {
    return null;
  }
}

/** "ffprobe: ok (h264+aac, 12.3 s)", "ffprobe: <error>", or a note that ffprobe is not installed. */
export function probeFile(path: string): Promise<string> {
  const bin = ffprobePath();
  if (!bin) return Promise.resolve('(ffprobe not installed)');
  return new Promise((resolve) => {
    execFile(bin, ['-v', 'error', '-show_entries', 'stream=codec_name:format=duration', '-of', 'json', path], (err, stdout, stderr) => {
      if (err) return resolve(`ffprobe: failed (${stderr.trim().split('\n')[0] ?? err.message})`);
      try {
        const info = JSON.parse(stdout) as { streams: { codec_name: string }[]; format: { duration: string } };
        const codecs = info.streams.map((s) => s.codec_name).join('+');
        resolve(stderr.trim() ? `ffprobe: ${stderr.trim().split('\n')[0]}` : `ffprobe: ok (${codecs}, ${Number(info.format.duration).toFixed(1)} s)`);
      } catch {
        resolve('ffprobe: unreadable answer');
      }
    });
  });
}
