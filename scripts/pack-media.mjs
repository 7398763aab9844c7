// Run by `npm pack` (prepack): encodes the simulator's 1080p content clips into dist/media, so the installed package plays real video without ffmpeg.
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The compiled modules (scripts/prepare.mjs has just built them): the same spec and names the simulator looks up.
const { generatedMedia, mediaName, packagedMediaDir } = await import(join(root, 'dist', 'src', 'media', 'generated-media.js'));
const { realClipSpec } = await import(join(root, 'dist', 'src', 'simulator', 'real-clips.js'));

/**
 * The demo's two bitrates (src/cli/demo.ts) and `liverec simulate`'s default (2 Mbps, nearest 1.5). The 6 and 10 Mbps
 * rungs (5.9 and 9.8 MB) stay out of the package (60 MB installed at most): `simulate --bitrate-kbps 4300+` encodes them
 * where ffmpeg is installed.
 */
export const PACKAGED_KBPS = [1500, 3000];

const out = packagedMediaDir();
mkdirSync(out, { recursive: true });
const names = PACKAGED_KBPS.map((kbps) => mediaName(realClipSpec(kbps)));
for (const name of readdirSync(out)) if (!names.includes(name)) rmSync(join(out, name), { force: true });
for (const kbps of PACKAGED_KBPS) {
  const target = join(out, mediaName(realClipSpec(kbps)));
  if (existsSync(target)) continue;
  // Encoded into the media cache first (reused by later packs), then copied in under a temporary name: a
  // simulator reading dist/media meanwhile never sees half a file.
  const tmp = `${target}.${process.pid}.tmp`;
  copyFileSync(await generatedMedia(realClipSpec(kbps)), tmp);
  renameSync(tmp, target);
}
console.log(`liverec: ${PACKAGED_KBPS.length} content clips in ${out}`);
