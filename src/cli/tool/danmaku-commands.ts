// `liverec tool danmaku-ass` and `tool danmaku-merge`: offline work on recorded danmaku XML files.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { errorCode } from '../../errors.js';

const DEFAULT_SIZE = { width: 1920, height: 1080 };

/** Runs a tool body; an error becomes one stderr line with its code and exit status 1. */
async function guarded(command: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    const code = errorCode(err);
    process.stderr.write(`liverec tool ${command}: ${(err as Error).message}${code !== 'UNKNOWN' ? ` (${code})` : ''}\n`);
    process.exitCode = 1;
  }
}

function parseSize(text: string): { width: number; height: number } {
  const m = /^(\d{2,5})x(\d{2,5})$/i.exec(text);
  if (!m) throw new Error(`--size must look like 1920x1080, got ${text}`);
  return { width: Number(m[1]), height: Number(m[2]) };
}

export function registerDanmakuTools(tool: Command): void {
  tool
    .command('danmaku-ass')
    .description('Render a danmaku XML (scrolling, top, bottom comments and super chats) as ASS subtitles sized for the sibling video')
    .argument('<input>', 'danmaku .xml')
    .argument('[output]', '.ass file to write (default: the input with .ass)')
    .option('--size <WxH>', 'picture size (default: read from the .flv/.mp4/.ts beside the input, else 1920x1080)')
    .option('--scroll-seconds <s>', 'seconds a scrolling comment takes to cross the screen', '8')
    .option('--json', 'print one JSON object on stdout')
    .action((input: string, output: string | undefined, o: { size?: string; scrollSeconds: string; json?: boolean }) => guarded('danmaku-ass', async () => {
      // Loaded here: the XML stack costs every other `tool` command ~90 ms of start-up otherwise.
      const [{ readDanmakuFile }, { siblingVideoSize }, { renderAss }] = await Promise.all([
        import('../../danmaku/read-xml.js'), import('../../danmaku/video-size.js'), import('../../danmaku/ass.js'),
      ]);
      const doc = readDanmakuFile(input);
      const video = o.size ? null : siblingVideoSize(input);
      const size = o.size ? parseSize(o.size) : (video ?? DEFAULT_SIZE);
      const scrollSeconds = Number(o.scrollSeconds);
      if (!(scrollSeconds > 0)) throw new Error('--scroll-seconds must be a positive number');
      const out = output ?? input.replace(/\.xml$/i, '') + '.ass';
      const r = renderAss(doc, { width: size.width, height: size.height, scrollSeconds });
      writeFileSync(out, r.text);
      const summary = { status: 'OK', output: out, width: size.width, height: size.height, sizeFrom: video?.source ?? (o.size ? '--size' : 'default'),
        events: { scroll: r.scroll, top: r.top, bottom: r.bottom, superChat: r.superChat } };
      process.stdout.write(o.json ? `${JSON.stringify(summary, null, 2)}\n`
        : `${out}: ${r.scroll + r.top + r.bottom + r.superChat} events (${r.scroll} scrolling, ${r.top} top, ${r.bottom} bottom, ${r.superChat} super chats) at ${size.width}x${size.height} (${summary.sizeFrom})\n`);
    }));

  tool
    .command('danmaku-merge')
    .description('Merge danmaku XMLs into one, shifting times by each file\'s start_time (as brec)')
    .argument('<output>', 'XML file to write')
    .argument('<inputs...>', 'two or more danmaku XMLs')
    .option('--offsets <seconds...>', 'seconds to shift each input by, one per input (instead of start_time)')
    .option('--json', 'print one JSON object on stdout')
    .action((output: string, inputs: string[], o: { offsets?: string[]; json?: boolean }) => guarded('danmaku-merge', async () => {
      const { mergeDanmaku } = await import('../../danmaku/merge.js');
      const offsets = o.offsets?.map((v) => {
        const n = Number(v);
        if (!Number.isFinite(n)) throw new Error(`--offsets: not a number: ${v}`);
        return n;
      });
      const r = mergeDanmaku(output, inputs, offsets);
      process.stdout.write(o.json ? `${JSON.stringify({ status: 'OK', ...r }, null, 2)}\n` : `${output}: ${r.items} items from ${inputs.length} files (offsets ${r.offsets.join(', ')} s)\n`);
    }));
}
