// Log level names: brec's (Serilog: Verbose … Fatal) and pino's, case-insensitive, mapped to pino levels.
import { LiverecError } from '../errors.js';

export type PinoLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

const NAMES: Record<string, PinoLevel> = {
  verbose: 'trace', debug: 'debug', information: 'info', warning: 'warn', error: 'error', fatal: 'fatal',
  trace: 'trace', info: 'info', warn: 'warn', silent: 'silent',
  // Serilog's three-letter forms, as its console shows them (VRB, DBG, INF, WRN, ERR, FTL).
  vrb: 'trace', dbg: 'debug', inf: 'info', wrn: 'warn', err: 'error', ftl: 'fatal',
};

export const BREC_LEVELS = ['Verbose', 'Debug', 'Information', 'Warning', 'Error', 'Fatal'] as const;

/** The pino level of a brec or pino level name; an unknown name throws LOG_LEVEL_INVALID naming the accepted ones. */
export function parseLogLevel(name: string, option = '--loglevel'): PinoLevel {
  const level = NAMES[name.trim().toLowerCase()];
  if (level) return level;
  throw new LiverecError('LOG_LEVEL_INVALID',
    `${option}: unknown log level "${name}"; use one of ${BREC_LEVELS.join(', ')} (or trace, debug, info, warn, error, fatal, silent)`);
}

const ORDER: PinoLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** The more verbose of two levels (the root logger must pass everything any destination wants). */
export const lowestLevel = (levels: PinoLevel[]): PinoLevel =>
  ORDER[Math.min(...levels.map((l) => ORDER.indexOf(l)))] ?? 'info';
