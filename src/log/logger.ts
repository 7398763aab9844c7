// Structured logging (pino): one root logger per process, room lines carry roomId, every line feeds the log ring; readable on a terminal.
import { createRequire } from 'node:module';
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
  /**
   * brec's file log: CLEF lines in `<dir>/<name><yyyyMMdd><ext>` from this base path (no file when absent).
   * `hold`: lines wait in memory until startFileLog(), so a failed start writes no logs/ folder.
   */
  file?: { path: string; level?: string; hold?: boolean };
  /** The console's form: `pretty` (readable lines), `json` (pino's lines); default pretty on a terminal, else json. */
  format?: LogFormat;
}

export type LogFormat = 'pretty' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['pretty', 'json'];

/**
 * Where console lines go: the given destination as JSON, or stderr, pretty on a terminal unless JSON is asked for.
 * Pretty lines come from pino-pretty in this thread (synchronous, so a fatal line is out before exit) and show
 * the room id first on room lines.
 */
function consoleStream(options: LoggerOptions): pino.DestinationStream {
  if (options.destination) return options.destination as pino.DestinationStream;
  const format = options.format ?? (process.stderr.isTTY ? 'pretty' : 'json');
  if (format === 'json') return process.stderr as unknown as pino.DestinationStream;
  // Loaded only here: JSON runs (services, tests, every thread) never pay for it.
  const pinoPretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return pinoPretty({
    destination: 2, sync: true, colorize: process.stderr.isTTY === true && !process.env.NO_COLOR,
    translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,roomId', singleLine: true,
    messageFormat: (log, key) => (log.roomId === undefined ? String(log[key]) : `[room ${String(log.roomId)}] ${String(log[key])}`),
  });
}

/** Creates (or replaces) the process-wide root logger. */
export function initLogger(options: LoggerOptions = {}): Logger {
  const level = parseLogLevel(options.level ?? process.env.LIVEREC_LOG_LEVEL ?? 'info');
  const streams: pino.StreamEntry[] = [
    { level: 'debug', stream: logRing },
    { level: level as pino.Level, stream: consoleStream(options) },
  ];
  const levels: PinoLevel[] = ['debug', level];
  fileSink?.close();
  fileSink = null;
  if (options.file) {
    const fileLevel = parseLogLevel(options.file.level ?? 'Debug', '--logfilelevel');
    fileSink = new ClefFileSink(options.file.path, options.file.hold);
    streams.push({ level: fileLevel as pino.Level, stream: fileSink });
    levels.push(fileLevel);
  }
  // "silent" is not a stream level pino accepts; a silent destination simply gets nothing.
  const active = streams.filter((s) => (s.level as string) !== 'silent');
  root = pino({ level: lowestLevel(levels.filter((l) => l !== 'silent')), base: { pid: process.pid } }, pino.multistream(active));
  return root;
}

/** Lets a held file log (LoggerOptions.file.hold) write: the start has succeeded. */
export function startFileLog(): void {
  fileSink?.release();
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
