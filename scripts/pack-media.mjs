// Run by `npm pack` (prepack): encodes the simulator's 1080p content clips into dist/media, so the installed package plays real video without ffmpeg.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
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
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const kbps of PACKAGED_KBPS) {
  const spec = realClipSpec(kbps);
  // Encoded into the media cache first (reused by later packs), then copied beside the bundles.
  copyFileSync(await generatedMedia(spec), join(out, mediaName(spec)));
}
console.log(`liverec: ${PACKAGED_KBPS.length} content clips in ${out}`);
