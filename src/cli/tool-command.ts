// `liverec tool analyze|fix|export`: offline FLV analysis, repair and XML export with brec-like results.
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import type { ToolTask, ToolTaskResult } from '../../workers/tool.worker.js';
import { registerDanmakuTools } from './tool/danmaku-commands.js';
import { registerClipTool } from './tool/clip-command.js';
import { formatReport } from './tool/format-report.js';
import { runJobs } from './tool/run-jobs.js';

interface JsonOption { json?: boolean; splitOnScriptTag?: boolean; keepCodec12?: boolean }

/** `dir/<input name without .flv/.xml/.gz>` as the output base of one input in --out-dir mode. */
function baseIn(dir: string, input: string): string {
  return join(dir, basename(input).replace(/(\.brec)?\.(flv|xml|xml\.gz|gz)$/i, ''));
}

/** Prints results (one JSON object, or readable lines), one stderr line per failure, and sets the exit code. */
function finish(command: string, results: ToolTaskResult[], json: boolean): void {
  for (const r of results) {
    if (r.status !== 'OK') process.stderr.write(`liverec tool ${command}: ${r.input}: ${r.status}${r.errorCode ? ` (${r.errorCode})` : ''}: ${r.errorMessage ?? ''}\n`);
  }
  const worst = results.find((r) => r.status !== 'OK')?.status ?? 'OK';
  if (json) {
    const doc = results.length === 1 ? results[0] : { status: worst, results };
    process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  } else {
    for (const r of results) process.stdout.write(formatReport(r));
  }
  if (worst !== 'OK') process.exitCode = 1;
}

async function run(command: string, tasks: Omit<ToolTask, 'progressPort'>[], json: boolean): Promise<void> {
  finish(command, await runJobs(tasks, command), json);
}

export function registerToolCommand(program: Command): void {
  const tool = program.command('tool').description('Offline FLV tools: analyze, fix (repair) and export tag structure');

  tool
    .command('analyze')
    .description('Run the repair pipeline without writing; report output files, issues and frame stats')
    .argument('<input...>', '.flv, .xml or .xml.gz inputs (several run in parallel)')
    .option('--json', 'print one JSON object on stdout')
    .option('--split-on-script-tag', 'start a new file at every later onMetaData (as the recorder option)')
    .action(async (inputs: string[], o: JsonOption) => {
      await run('analyze', inputs.map((input) => ({ command: 'analyze', input, splitOnScriptTag: o.splitOnScriptTag ?? false })), o.json ?? false);
    });

  tool
    .command('fix')
    .description('Repair: <input> <outputBase> writes <outputBase>.fix_p001.flv …; with --out-dir every argument is an input')
    .argument('<paths...>', '<input> <outputBase>, or inputs with --out-dir')
    .option('--out-dir <dir>', 'repair every input into this folder, in parallel')
    .option('--json', 'print one JSON object on stdout')
    .option('--split-on-script-tag', 'start a new file at every later onMetaData (as the recorder option)')
    .option('--keep-codec12', 'write HEVC as codec id 12 (brec/Bilibili form) instead of Enhanced FLV (hvc1)')
    .action(async (paths: string[], o: JsonOption & { outDir?: string }) => {
      const keepCodec12 = o.keepCodec12 ?? false;
      let tasks: Omit<ToolTask, 'progressPort'>[];
      if (o.outDir) {
        mkdirSync(o.outDir, { recursive: true });
        tasks = paths.map((input) => ({ command: 'fix', input, output: baseIn(o.outDir!, input), splitOnScriptTag: o.splitOnScriptTag ?? false, keepCodec12 }));
      } else if (paths.length === 2) {
        tasks = [{ command: 'fix', input: paths[0]!, output: paths[1]!, splitOnScriptTag: o.splitOnScriptTag ?? false, keepCodec12 }];
      } else {
        process.stderr.write('liverec tool fix: expected <input> <outputBase>, or inputs with --out-dir <dir>\n');
        process.exitCode = 2;
        return;
      }
      await run('fix', tasks, o.json ?? false);
    });

  tool
    .command('export')
    .description("Write an FLV file's tag structure as BililiveRecorder XML (.xml, or gzip when named .gz)")
    .argument('<input>', 'FLV file')
    .argument('<output>', 'XML file to write')
    .option('--json', 'print one JSON object on stdout')
    .action(async (input: string, output: string, o: JsonOption) => {
      await run('export', [{ command: 'export', input, output }], o.json ?? false);
    });

  registerDanmakuTools(tool);
  registerClipTool(tool);
}
