// The ffmpeg binary of the npm devDependency, made executable (as test/support/media-tools.ts does: the exec bit may be missing for non-owners).
import { accessSync, chmodSync, constants, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { tempDir } from './cleanup.js';

let usable: string | null = null;

export function ffmpegBin(): string {
  if (usable) return usable;
  const p = ffmpegInstaller.path;
  try {
    accessSync(p, constants.X_OK);
    usable = p;
  } catch {
    try {
      chmodSync(p, 0o755);
      accessSync(p, constants.X_OK);
      usable = p;
    } catch {
      usable = join(tempDir('liverec-bench-ffmpeg-'), 'ffmpeg');
      copyFileSync(p, usable);
      chmodSync(usable, 0o755);
    }
  }
  return usable;
}
