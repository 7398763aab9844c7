#!/usr/bin/env node
// The `liverec` command line: one registration module per command family.
import { Command } from 'commander';
import { VERSION } from '../version.js';

const program = new Command();
program.name('liverec').description('A live-stream recorder for Bilibili live rooms').version(VERSION);
// `liverec tool …` runs on big files and in scripts: it loads only its own module. The other families pull
// in the service stack at import time (measured ~0.7 s CPU and ~90 MB RSS before any work).
if (process.argv[2] === 'tool') {
  (await import('./tool-command.js')).registerToolCommand(program);
} else {
  const [recorder, simulate, tool, cluster] = await Promise.all([
    import('./recorder-commands.js'), import('./simulate-command.js'), import('./tool-command.js'), import('./cluster-command.js'),
  ]);
  recorder.registerRecorderCommands(program);
  cluster.registerClusterCommands(program);
  simulate.registerSimulateCommand(program);
  tool.registerToolCommand(program);
}

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`liverec: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
