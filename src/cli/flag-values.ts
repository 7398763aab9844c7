// Option values the command line refuses: a bad value ends the command with one line on stderr and exit status 2.
import { InvalidArgumentError } from 'commander';
import { tryParseBind } from '../api/bind.js';
import { parseLogLevel } from '../log/levels.js';

/** A usage error (a refused flag or argument): one line on stderr, exit 2, before anything is written. */
export function usage(message: string): never {
  process.stderr.write(`liverec: ${message}\n`);
  process.exit(2);
}

/** An integer flag from `min` to `max`: digits only, so `abc`, `1.5`, `-3` and `12abc` are refused, not rounded. */
export function intFlag(min: number, max: number): (value: string) => number {
  return (value) => {
    const v = value.trim();
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new InvalidArgumentError(`It must be a whole number from ${min} to ${max}.`);
    return Number(v);
  };
}

/** A positive number (seconds and the like): decimals allowed, nothing else. */
export function positiveNumberFlag(value: string): number {
  const v = value.trim();
  if (!/^\d+(\.\d+)?$/.test(v) || !(Number(v) > 0)) throw new InvalidArgumentError('It must be a positive number.');
  return Number(v);
}

/** brec's --bind: a port (0-65535) or scheme://host[:port]; kept as text (the API server parses it again). */
export function bindFlag(value: string): string {
  if (!tryParseBind(value)) throw new InvalidArgumentError('Use a port from 0 to 65535 (localhost) or a URL such as http://0.0.0.0:2356.');
  return value;
}

/** true/false (also 1/0, yes/no), any case. */
export function boolFlag(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(v)) return true;
  if (['false', '0', 'no'].includes(v)) return false;
  throw new InvalidArgumentError('Use true or false.');
}

/** A log level name (brec's or pino's), checked now; the logger maps it later. */
export function logLevelFlag(value: string): string {
  try {
    parseLogLevel(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message.replace(/^--\w+: /, ''));
  }
  return value;
}

/** One of `choices`, any case; returns the choice as written in the list. */
export function choiceFlag<T extends string>(choices: readonly T[]): (value: string) => T {
  return (value) => {
    const hit = choices.find((c) => c.toLowerCase() === value.trim().toLowerCase());
    if (!hit) throw new InvalidArgumentError(`Use one of ${choices.join(', ')}.`);
    return hit;
  };
}
