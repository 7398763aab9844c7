// `liverec run`, `liverec portable` and `liverec demo`: brec-compatible flags over the same service.
import { mkdirSync, existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { danmakuSettingsFromFlags } from '../danmaku/portable-flags.js';
import { ConfigStore } from '../config/store.js';
import { initLogger } from '../log/logger.js';
import { startService, stopOnSignals } from '../service.js';
import { runDemo } from './demo.js';

interface HttpFlags {
  bind?: string;
  httpBind?: string;
  httpBasicUser?: string;
  httpBasicPass?: string;
  httpOpenAccess?: boolean;
  httpCorsOrigin?: string[];
  enableFileBrowser?: string;
  loglevel?: string;
  roomsPerWorker?: string;
}

function addHttpOptions(cmd: Command): Command {
  return cmd
    .option('-b, --bind <url|port>', 'serve the HTTP API (bare port = localhost; default port 2356)')
    .option('--http-bind <url|port>', 'same as --bind')
    .option('--http-basic-user <user>', 'Basic auth user (or BREC_HTTP_BASIC_USER)')
    .option('--http-basic-pass <pass>', 'Basic auth password (or BREC_HTTP_BASIC_PASS)')
    .option('--http-open-access', 'allow access from outside loopback/LAN without auth (or BREC_HTTP_OPEN_ACCESS)')
    .option('--http-cors-origin <origin>', 'an origin (http://host:port) trusted to call the API from a browser; repeatable or comma-separated; * = any (or LIVEREC_HTTP_CORS_ORIGIN)',
      (v: string, all: string[] = []) => [...all, ...v.split(',')])
    .option('--enable-file-browser <bool>', 'serve /file and /api/file (default true)')
    .option('-l, --loglevel <level>', 'log level: debug, info, warn, error', 'info')
    .option('--rooms-per-worker <n>', 'room actors per worker thread (1 = a thread per room); default: a thread per room up to 2 x cores threads, then rooms spread evenly over them');
}

function apiOptions(flags: HttpFlags) {
  const bind = flags.bind ?? flags.httpBind;
  if (bind === undefined) return undefined;
  return {
    bind, basicUser: flags.httpBasicUser, basicPass: flags.httpBasicPass, openAccess: flags.httpOpenAccess, corsOrigins: flags.httpCorsOrigin,
    fileBrowser: flags.enableFileBrowser === undefined ? true : !/^(false|0|no)$/i.test(flags.enableFileBrowser),
  };
}

const positiveInt = (v: string | undefined): number | undefined => (v === undefined ? undefined : Math.max(1, Number.parseInt(v, 10) || 1));

function fail(message: string): never {
  process.stderr.write(`liverec: ${message}\n`);
  process.exit(1);
}

export function registerRecorderCommands(program: Command): void {
  addHttpOptions(program.command('run').alias('r').argument('<workdir>', 'work directory holding config.json and the recordings'))
    .description('record the rooms of <workdir>/config.json (BililiveRecorder config v3)')
    .action(async (workdir: string, flags: HttpFlags) => {
      initLogger({ level: flags.loglevel });
      const workDir = resolve(workdir);
      if (!existsSync(workDir) || !statSync(workDir).isDirectory()) fail(`work directory ${workDir} does not exist`);
      let config: ConfigStore;
      try {
        config = ConfigStore.load(workDir);
      } catch (err) {
        fail(`refusing to start: ${(err as Error).message} (the file was left unchanged)`);
      }
      const service = await startService({ workDir, config, api: apiOptions(flags), roomsPerWorker: positiveInt(flags.roomsPerWorker) });
      stopOnSignals(service);
    });

  addHttpOptions(program.command('portable').alias('p').argument('<outdir>', 'where recordings go').argument('[roomIds...]', 'rooms to record'))
    .description('record the given rooms without a config file')
    .option('--live-api-host <url>', 'base URL of the live API (e.g. a simulator)')
    .option('--webhook-url <url>', 'webhook v2 URL(s), one per line')
    .option('-c, --cookie <cookie>', 'cookie for the live API')
    .option('-f, --filename <template>', 'file name template (Liquid)')
    .option('--record-mode <mode>', 'Standard or RawData', 'Standard')
    .option('-d, --danmaku <flags>', 'danmaku XML: None, Danmaku, SuperChat, Guard, Gift, RawData, All (comma-separated)', 'None')
    .action(async (outdir: string, roomIds: string[], flags: HttpFlags & Record<string, string | undefined>) => {
      initLogger({ level: flags.loglevel });
      const workDir = resolve(outdir);
      mkdirSync(workDir, { recursive: true });
      const config = new ConfigStore(); // in memory only: portable mode never writes a config
      if (flags.liveApiHost) config.global.LiveApiHost = flags.liveApiHost;
      if (flags.webhookUrl) config.global.WebHookUrlsV2 = flags.webhookUrl;
      if (flags.cookie) config.global.Cookie = flags.cookie;
      if (flags.filename) config.global.FileNameRecordTemplate = flags.filename;
      if (!/^(standard|rawdata|0|1)$/i.test(flags.recordMode ?? 'Standard')) fail(`--record-mode must be Standard or RawData`);
      config.global.RecordMode = /^(rawdata|1)$/i.test(flags.recordMode ?? '') ? 1 : 0;
      try {
        Object.assign(config.global, danmakuSettingsFromFlags(flags.danmaku));
      } catch (err) {
        fail((err as Error).message);
      }
      for (const id of roomIds) {
        const roomId = Number(id);
        if (!Number.isSafeInteger(roomId) || roomId <= 0) fail(`room id must be a positive integer: ${id}`);
        if (!config.findRoom(roomId)) config.addRoom(roomId, true);
      }
      const service = await startService({ workDir, config, api: apiOptions(flags), roomsPerWorker: positiveInt(flags.roomsPerWorker) });
      stopOnSignals(service);
    });

  program.command('demo')
    .description('record 3 rooms of a built-in simulator of the live service, with the API on http://127.0.0.1:2356')
    .option('--seconds <n>', 'stop after this many seconds', '60')
    .option('--port <port>', 'HTTP API port', '2356')
    .option('--out <dir>', 'where the recordings go', 'liverec-demo')
    .action(async (flags: { seconds: string; port: string; out: string }) => {
      const seconds = Number(flags.seconds);
      if (!Number.isFinite(seconds) || seconds <= 0) fail('--seconds must be a positive number');
      await runDemo({ seconds, port: Number(flags.port), outDir: resolve(flags.out) });
    });
}
