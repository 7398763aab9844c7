#!/usr/bin/env node
// The `liverec` command line: one registration module per command family.
import { Command } from 'commander';
import { registerToolCommand } from './tool-command.js';
import { registerSimulateCommand } from './simulate-command.js';
import { registerRecorderCommands } from './recorder-commands.js';
import { VERSION } from '../version.js';

const program = new Command();
program.name('liverec').description('A live-stream recorder for Bilibili live rooms').version(VERSION);
registerRecorderCommands(program);
registerSimulateCommand(program);
registerToolCommand(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`liverec: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
