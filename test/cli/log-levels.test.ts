// brec's log level names (any case) map onto pino's; the file sink writes CLEF in brec's rolling file names.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rollingName } from '../../src/log/file-sink.js';
import { parseLogLevel } from '../../src/log/levels.js';
import { initLogger, logFilePath, logger, roomLogger } from '../../src/log/logger.js';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/** Which of the six levels reach the console destination at a given -l value. */
function passing(level: string): string[] {
  const lines: string[] = [];
  initLogger({ level, destination: { write: (l: string) => lines.push(l) } });
  for (const l of LEVELS) logger()[l](`at ${l}`);
  return lines.map((l) => (JSON.parse(l) as { msg: string }).msg.slice(3));
}

describe('log levels', () => {
  const dir = mkdtempSync(join(tmpdir(), 'liverec-log-'));
  afterAll(() => {
    initLogger({ level: 'error' });
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['Verbose', 'trace'], ['verbose', 'trace'], ['Debug', 'debug'], ['DEBUG', 'debug'], ['Information', 'info'], ['information', 'info'],
    ['Warning', 'warn'], ['warning', 'warn'], ['Error', 'error'], ['error', 'error'], ['Fatal', 'fatal'], ['FATAL', 'fatal'],
  ])('%s passes %s and everything above it', (name, lowest) => {
    expect(parseLogLevel(name)).toBe(lowest);
    expect(passing(name)).toEqual(LEVELS.slice(LEVELS.indexOf(lowest as (typeof LEVELS)[number])));
  });

  it('keeps pino names and refuses anything else, naming the accepted levels', () => {
    expect(passing('warn')).toEqual(['warn', 'error', 'fatal']);
    expect(() => parseLogLevel('Informational')).toThrow(/unknown log level "Informational"; use one of Verbose, Debug, Information, Warning, Error, Fatal/);
    expect(() => initLogger({ level: 'loud' })).toThrow(/unknown log level/);
  });

  it('writes the file log as CLEF at its own level, independent of the console level', () => {
    const console: string[] = [];
    initLogger({ level: 'Error', destination: { write: (l: string) => console.push(l) }, file: { path: join(dir, 'logs', 'bilirec.txt'), level: 'Debug' } });
    logger().trace('not in the file');
    logger().debug('a debug line');
    roomLogger(77).warn({ path: 'a.flv' }, 'a room warning');
    expect(console).toEqual([]);
    const file = logFilePath()!;
    expect(file).toBe(rollingName(join(dir, 'logs', 'bilirec.txt'), new Date()));
    expect(file).toMatch(/bilirec\d{8}\.txt$/);
    const clef = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(clef.map((l) => l['@mt'])).toEqual(['a debug line', 'a room warning']);
    expect(clef[0]!['@l']).toBe('Debug');
    expect(clef[1]).toMatchObject({ '@l': 'Warning', RoomId: 77, path: 'a.flv' });
    expect(rollingName('/x/bilirec.txt', new Date(2024, 2, 7), 2)).toBe('/x/bilirec20240307_002.txt');
  });
});
