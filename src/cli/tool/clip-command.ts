// `liverec tool clip <file> <start> <end>`: the lossless clip of POST /api/clips, offline, in this process.
import type { Command } from 'commander';
import { errorCode } from '../../errors.js';
import { usage } from '../flag-values.js';

/** `12`, `12.5` (seconds), `1:02` or `1:02:03.5` → milliseconds; null when it is none of these. */
export function parseClipTime(text: string): number | null {
  const m = /^(?:(?:(\d+):)?(\d{1,2}):)?(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (!m) return null;
  const [, h, min, s] = m;
  if ((h !== undefined || min !== undefined) && Number(s) >= 60) return null;
  return Math.round(((Number(h ?? 0) * 60 + Number(min ?? 0)) * 60 + Number(s)) * 1000);
}

export function registerClipTool(tool: Command): void {
  tool
    .command('clip')
    .description('Cut a lossless clip of a recording (from the keyframe at or before <start>) as MP4 or FLV, with its danmaku as XML and ASS')
    .argument('<file>', 'the recording (.flv, .ts or .mp4)')
    .argument('<start>', 'start: seconds (12.5) or [h:]mm:ss(.ms)')
    .argument('<end>', 'end, as start')
    .option('--format <mp4|flv>', 'the clip\'s container (flv needs an FLV recording)', 'mp4')
    .option('--no-danmaku', 'leave the danmaku XML beside the recording out')
    .option('--json', 'print one JSON object on stdout')
    .action(async (file: string, start: string, end: string, o: { format: string; danmaku: boolean; json?: boolean }) => {
      const startMs = parseClipTime(start);
      const endMs = parseClipTime(end);
      if (startMs === null) usage(`tool clip: <start> must be seconds or [h:]mm:ss, got ${start}`);
      if (endMs === null) usage(`tool clip: <end> must be seconds or [h:]mm:ss, got ${end}`);
      if (endMs <= startMs) usage('tool clip: <end> must be after <start>');
      if (o.format !== 'mp4' && o.format !== 'flv') usage(`tool clip: --format must be mp4 or flv, got ${o.format}`);
      try {
        // Loaded here: the muxer and the XML stack would slow every other `tool` command's start.
        const { makeClip } = await import('../../clips/clip.js');
        const r = makeClip({ input: file, startMs, endMs, format: o.format, danmaku: o.danmaku });
        process.stdout.write(o.json ? `${JSON.stringify({ status: 'OK', ...r }, null, 2)}\n`
          : `${r.output}: ${r.durationS.toFixed(3)} s from ${(r.fromMs / 1000).toFixed(3)} s (the keyframe at or before ${(startMs / 1000).toFixed(3)} s)`
            + `${r.danmaku ? `; ${r.danmaku.items} danmaku in ${r.danmaku.xml} and ${r.danmaku.ass}` : ''}\n`);
      } catch (err) {
        const code = errorCode(err);
        process.stderr.write(`liverec tool clip: ${(err as Error).message}${code !== 'UNKNOWN' ? ` (${code})` : ''}\n`);
        process.exitCode = 1;
      }
    });
}
