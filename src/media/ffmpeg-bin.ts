// The ffmpeg of the @ffmpeg-installer devDependency, made executable (the exec bit may be missing for non-owners).
import { accessSync, chmodSync, constants, copyFileSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let usable: string | null = null;

/** Path of a runnable ffmpeg; throws a clear error when the devDependency is not installed. */
export function ffmpegBin(): string {
  if (usable) return usable;
  let p: string;
  try {
    p = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch {
    throw new Error('ffmpeg is needed to encode this clip: the release package ships only the 1.5 and 3 Mbps clips (simulate: --bitrate-kbps up to 4000, --clip FILE.flv or --small-clips); in a checkout, npm ci installs ffmpeg');
  }
  try {
    accessSync(p, constants.X_OK);
    usable = p;
  } catch {
    try {
      chmodSync(p, 0o755);
      accessSync(p, constants.X_OK);
      usable = p;
    } catch {
      usable = join(mkdtempSync(join(tmpdir(), 'liverec-ffmpeg-')), 'ffmpeg');
      copyFileSync(p, usable);
      chmodSync(usable, 0o755);
    }
  }
  return usable;
}
