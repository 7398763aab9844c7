// Builds the web UI into dist/web with esbuild (run by `npm run build` and `prepare`; also importable by tests).
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
export const WEB_OUT_DIR = join(here, '..', 'dist', 'web');

/** Bundles web/src into dist/web: index.html, app.js (+ a lazily loaded player chunk), app.css (uPlot's styles + ours). */
export async function buildWeb({ outDir = WEB_OUT_DIR, minify = true } = {}) {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: { app: join(here, 'src', 'main.tsx') },
    outdir: outDir,
    bundle: true,
    // ESM with splitting: mpegts.js (the FLV player) is only fetched when a video is opened.
    format: 'esm',
    splitting: true,
    chunkNames: '[name]-[hash]',
    minify,
    sourcemap: false,
    target: ['chrome111', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'linked',
    // The Chinese dictionary as UTF-8 rather than \uXXXX escapes (half the bytes); the server sends charset=utf-8.
    charset: 'utf8',
    logLevel: 'warning',
  });
  await copyFile(join(here, 'index.html'), join(outDir, 'index.html'));
  // uPlot's own stylesheet (the charts' layout), then ours, as the one app.css the page loads.
  const uplotCss = await readFile(createRequire(import.meta.url).resolve('uplot/dist/uPlot.min.css'), 'utf8');
  await writeFile(join(outDir, 'app.css'), `${uplotCss}\n${await readFile(join(here, 'styles.css'), 'utf8')}`);
  return outDir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await buildWeb();
  console.log(`web UI built into ${out}`);
}
