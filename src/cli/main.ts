// The `liverec` command line: one registration module per command family, loaded only for its own commands.
import type { Command } from 'commander';
import { newProgram, runProgram } from './program.js';

type Family = 'recorder' | 'simulate' | 'tool' | 'cluster' | 'check' | 'login';

// Each family pulls in its own stack at import time (the recorder's service stack alone is ~0.5 s of CPU),
// so a command loads only its family; help and unknown commands load them all to list every command.
const FAMILY_OF: Record<string, Family> = {
  run: 'recorder', r: 'recorder', portable: 'recorder', p: 'recorder', demo: 'recorder',
  simulate: 'simulate', tool: 'tool', cluster: 'cluster', check: 'check', login: 'login',
};

async function register(program: Command, family: Family): Promise<void> {
  if (family === 'recorder') (await import('./recorder-commands.js')).registerRecorderCommands(program);
  else if (family === 'cluster') (await import('./cluster-command.js')).registerClusterCommands(program);
  else if (family === 'simulate') (await import('./simulate-command.js')).registerSimulateCommand(program);
  else if (family === 'check') (await import('./check-command.js')).registerCheckCommand(program);
  else if (family === 'login') (await import('./login-command.js')).registerLoginCommand(program);
  else (await import('./tool-command.js')).registerToolCommand(program);
}

/** Registers the families `argv` needs, then runs the command. */
export async function main(argv: readonly string[], options: { allFamilies?: boolean } = {}): Promise<void> {
  const program = newProgram();
  const first = argv[2];
  if (first !== '-V' && first !== '--version') {
    const family = first === undefined || options.allFamilies ? undefined : FAMILY_OF[first];
    const families: Family[] = family ? [family] : ['recorder', 'cluster', 'simulate', 'tool', 'check', 'login'];
    for (const f of families) await register(program, f);
  }
  await runProgram(program, argv);
}
