// Structured logging (pino): one root logger per process, room lines carry roomId, and every line feeds the log ring.
import pino, { type Logger } from 'pino';
import { LogRing } from './ring.js';

export type { Logger } from 'pino';

export const logRing = new LogRing(100);

let root: Logger | null = null;

export interface LoggerOptions {
  level?: string;
  /** Where JSON lines go besides the ring; defaults to stderr so stdout stays free for command output. */
  destination?: NodeJS.WritableStream | { write(line: string): void };
}

/** Creates (or replaces) the process-wide root logger. */
export function initLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? process.env.LIVEREC_LOG_LEVEL ?? 'info';
  const streams: pino.StreamEntry[] = [
    { level: 'debug', stream: logRing },
    { level: level as pino.Level, stream: (options.destination ?? process.stderr) as pino.DestinationStream },
  ];
  root = pino({ level: 'debug', base: { pid: process.pid } }, pino.multistream(streams));
  return root;
}

/** The root logger; created on first use with defaults. */
export function logger(): Logger {
  return root ?? initLogger();
}

/** A child logger for one room: every line carries its roomId. */
export function roomLogger(roomId: number): Logger {
  return logger().child({ roomId });
}
