// Placeholder registration; replaced by the module that owns these commands.
import type { Command } from 'commander';

export function registerToolCommand(_program: Command): void {}
