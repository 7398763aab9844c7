// The `liverec` program shell that both bundles share: its name and version, and how a failed command ends.
import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.js';

export function newProgram(): Command {
  // exitOverride is inherited by every command registered after it: commander's own refusals (a bad option
  // value, an unknown option, a missing argument) come back here as CommanderError instead of exiting 1.
  return new Command().name('liverec').description('A live-stream recorder for Bilibili live rooms').version(VERSION).exitOverride()
    // Its refusals read like liverec's own: `liverec: option '--bind <url|port>' argument '99999' is invalid. …`
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'liverec: ')) });
}

/**
 * Parses and runs. A refused command line (commander has printed its one line) exits with status 2, help and
 * --version with 0; a command that throws prints one line and exits with status 1.
 */
export async function runProgram(program: Command, argv: readonly string[]): Promise<void> {
  await program.parseAsync(argv as string[]).catch((err: unknown) => {
    if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
    process.stderr.write(`liverec: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
