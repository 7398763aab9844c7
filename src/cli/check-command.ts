// `liverec check <roomId…>`: what liverec would record for each room and why, without recording (users run it when a room does not record).
import { type Command, CommanderError, InvalidArgumentError } from 'commander';
import { BilibiliApiClient } from '../bilibili/api-client.js';
import { DEFAULT_RECORDING_QUALITY } from '../bilibili/quality.js';
import { checkRecordingProtocol, DEFAULT_RECORDING_PROTOCOL } from '../bilibili/recording-protocol.js';
import { checkExitCode, checkRoom, checkText, type RoomCheck } from '../check/room-check.js';

interface CheckFlags {
  liveApiHost?: string;
  cookie?: string;
  json?: boolean;
  recordingQuality: string;
  recordingProtocol: string;
}

function roomIdArg(value: string, previous: number[] = []): number[] {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 2 ** 31) throw new InvalidArgumentError(`a room id is a positive integer, got "${value}"`);
  return [...previous, Number(value)];
}

function urlArg(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`not a URL: "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`must be an http(s) URL, got "${value}"`);
  return value;
}

function protocolArg(value: string): string {
  const problem = checkRecordingProtocol(value);
  if (problem) throw new InvalidArgumentError(problem);
  return value;
}

export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description('say, for each room, what liverec would record and why (ids, live state, unavailableReason, every stream offered, the chosen one), without recording')
    .argument('<roomIds...>', 'room ids (real or short)', roomIdArg)
    .option('--live-api-host <url>', 'base URL of the live API (e.g. a simulator)', urlArg)
    .option('-c, --cookie <cookie>', 'cookie for the live API (without one, liverec uses a guest identity from finger/spi)')
    .option('--json', 'print one JSON document {rooms: [...]} instead of text')
    .option('--recording-quality <tokens>', 'RecordingQuality to choose with', DEFAULT_RECORDING_QUALITY)
    .option('--recording-protocol <list>', 'RecordingProtocol to choose with', protocolArg, DEFAULT_RECORDING_PROTOCOL)
    // A refused flag or argument exits 2 (after commander's own message); help and version exit 0.
    .exitOverride((err: CommanderError) => process.exit(err.exitCode === 0 ? 0 : 2))
    .action(async (roomIds: number[], flags: CheckFlags) => {
      const api = new BilibiliApiClient({ liveApiHost: flags.liveApiHost ?? '', cookie: flags.cookie ?? '', recordingQuality: flags.recordingQuality });
      const results: RoomCheck[] = [];
      for (const id of roomIds) {
        const r = await checkRoom(api, id, { recordingQuality: flags.recordingQuality, recordingProtocol: flags.recordingProtocol });
        results.push(r);
        if (!flags.json) process.stdout.write(`${checkText(r)}\n\n`);
      }
      if (flags.json) process.stdout.write(`${JSON.stringify({ rooms: results }, null, 2)}\n`);
      // 0: every room recordable (or offline, its state printed); 3: one cannot be recorded (not found, paid, no
      // stream …); 1: one could not be checked (network, risk control, bad answers). docs/cli.md.
      process.exitCode = checkExitCode(results);
    });
}
