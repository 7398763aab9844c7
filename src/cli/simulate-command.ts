// Placeholder registration; replaced by the module that owns these commands.
import type { Command } from 'commander';

export function registerSimulateCommand(_program: Command): void {}
