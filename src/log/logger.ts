// Structured logging (pino): one root logger per process, room lines carry roomId, and every line feeds the log ring.
import pino, { type Logger } from 'pino';
import { ClefFileSink } from './file-sink.js';
import { lowestLevel, parseLogLevel, type PinoLevel } from './levels.js';
import { LogRing } from './ring.js';

export type { Logger } from 'pino';

export const logRing = new LogRing(100);

let root: Logger | null = null;
let fileSink: ClefFileSink | null = null;

export interface LoggerOptions {
  /** Console level: a brec name (Verbose … Fatal) or a pino name, any case; unknown names throw LOG_LEVEL_INVALID. */
  level?: string;
  /** Where JSON lines go besides the ring; defaults to stderr so stdout stays free for command output. */
  destination?: NodeJS.WritableStream | { write(line: string): void };
  /** brec's file log: CLEF lines in `<dir>/<name><yyyyMMdd><ext>` from this base path (no file when absent). */
  file?: { path: string; level?: string };
}

/** Creates (or replaces) the process-wide root logger. */
export function initLogger(options: LoggerOptions = {}): Logger {
  const level = parseLogLevel(options.level ?? process.env.LIVEREC_LOG_LEVEL ?? 'info');
  const streams: pino.StreamEntry[] = [
    { level: 'debug', stream: logRing },
    { level: level as pino.Level, stream: (options.destination ?? process.stderr) as pino.DestinationStream },
  ];
  const levels: PinoLevel[] = ['debug', level];
  fileSink?.close();
  fileSink = null;
  if (options.file) {
    const fileLevel = parseLogLevel(options.file.level ?? 'Debug', '--logfilelevel');
    fileSink = new ClefFileSink(options.file.path);
    streams.push({ level: fileLevel as pino.Level, stream: fileSink });
    levels.push(fileLevel);
  }
  // "silent" is not a stream level pino accepts; a silent destination simply gets nothing.
  const active = streams.filter((s) => (s.level as string) !== 'silent');
  root = pino({ level: lowestLevel(levels.filter((l) => l !== 'silent')), base: { pid: process.pid } }, pino.multistream(active));
  return root;
}

/** The file the log sink writes now, if any. */
export const logFilePath = (): string | null => fileSink?.path ?? null;

/** The root logger; created on first use with defaults. */
export function logger(): Logger {
  return root ?? initLogger();
}

/** A child logger for one room: every line carries its roomId. */
export function roomLogger(roomId: number): Logger {
  return logger().child({ roomId });
}
