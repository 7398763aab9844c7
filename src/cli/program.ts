// The `liverec` program shell that both bundles share: its name and version, and how a failed command ends.
import { Command } from 'commander';
import { VERSION } from '../version.js';

export function newProgram(): Command {
  return new Command().name('liverec').description('A live-stream recorder for Bilibili live rooms').version(VERSION);
}

/** Parses and runs; a command that throws prints one line and exits with status 1. */
export async function runProgram(program: Command, argv: readonly string[]): Promise<void> {
  await program.parseAsync(argv as string[]).catch((err: unknown) => {
    process.stderr.write(`liverec: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
