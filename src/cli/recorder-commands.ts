// `liverec run`, `liverec portable` and `liverec demo`: brec-compatible flags over the same service.
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigStore } from '../config/store.js';
import { unknownMemberWarnings } from '../config/unknown-members.js';
import { danmakuSettingsFromFlags } from '../danmaku/portable-flags.js';
import { logger, startFileLog } from '../log/logger.js';
import { startService, stopOnSignals, type Service } from '../service.js';
import { addClusterOptions, clusterSettings, type ClusterFlags } from './cluster-command.js';
import { intFlag, positiveNumberFlag, usage } from './flag-values.js';
import { addServerOptions, apiOptions, fail, initCliLogger, type ServerFlags } from './server-flags.js';
import { startupLines } from './startup-lines.js';
import { workDirProblem } from './work-dir.js';

async function serve(flags: ServerFlags, workDir: string, start: () => Promise<Service>): Promise<void> {
  let service: Service;
  try {
    service = await start();
  } catch (err) {
    logger().fatal({ err }, 'failed to start');
    fail((err as Error).message);
  }
  startFileLog();
  if (service.api) process.stdout.write(startupLines(service.api, workDir));
  // brec keeps recording without its web API; nothing else would hold the event loop open with no rooms.
  else logger().info('Web API not enabled (no --bind): the HTTP API is off; recording continues until SIGINT/SIGTERM');
  const keepAlive = setInterval(() => undefined, 1 << 30);
  stopOnSignals(service, () => clearInterval(keepAlive));
}

export function registerRecorderCommands(program: Command): void {
  addClusterOptions(addServerOptions(program.command('run').alias('r').argument('<workdir>', 'work directory holding config.json and the recordings')))
    .description('record the rooms of <workdir>/config.json (BililiveRecorder config v3), or a share of a cluster\'s rooms (--cluster)')
    .option('--config-override <file>', 'read and save the config from this file instead of <workdir>/config.json')
    .action(async (workdir: string, flags: ServerFlags & ClusterFlags & { configOverride?: string }) => {
      const workDir = resolve(workdir);
      const problem = workDirProblem(workDir);
      if (problem) fail(problem);
      initCliLogger(flags, workDir);
      const api = apiOptions(flags); // refuses a bad certificate pair before anything starts
      const cluster = clusterSettings(flags);
      if (cluster) {
        const { startClusterService } = await import('../cluster/start.js');
        return serve(flags, workDir, () => startClusterService({ workDir, api, roomsPerWorker: flags.roomsPerWorker, cluster }));
      }
      const file = flags.configOverride === undefined ? undefined : resolve(flags.configOverride);
      if (file && !existsSync(file)) usage(`--config-override: ${file} does not exist`);
      let config: ConfigStore;
      try {
        config = ConfigStore.load(workDir, file);
      } catch (err) {
        fail(`refusing to start: ${(err as Error).message} (the file was left unchanged)`);
      }
      if (file) logger().info({ configOverride: file }, `Using config from ${file}`);
      // Kept for brec's sake, but a misspelled key must not go unnoticed (AutoRecrod → a room never recorded).
      for (const line of unknownMemberWarnings(config)) logger().warn({ configFile: config.path }, line);
      await serve(flags, workDir, () => startService({ workDir, config, api, roomsPerWorker: flags.roomsPerWorker }));
    });

  addServerOptions(program.command('portable').alias('p').argument('<outdir>', 'where recordings go').argument('[roomIds...]', 'rooms to record'))
    .description('record the given rooms without a config file')
    .option('--live-api-host <url>', 'base URL of the live API (e.g. a simulator)')
    .option('--webhook-url <url>', 'webhook v2 URL(s), one per line')
    .option('-c, --cookie <cookie>', 'cookie for the live API')
    .option('-f, --filename <template>', 'file name template (Liquid)')
    .option('--record-mode <mode>', 'Standard or RawData', 'Standard')
    .option('--mode <mode>', 'same as --record-mode')
    .option('-d, --danmaku <flags>', 'danmaku to record: None, Danmaku, SuperChat, Guard, Gift, RawData, All; comma-separated (default None)')
    .action(async (outdir: string, roomIds: string[], flags: ServerFlags & Record<string, string | undefined>) => {
      const workDir = resolve(outdir);
      const problem = workDirProblem(workDir, true);
      if (problem) fail(problem);
      initCliLogger(flags, workDir);
      const api = apiOptions(flags);
      const config = new ConfigStore(); // in memory only: portable mode never writes a config
      if (flags.liveApiHost) config.global.LiveApiHost = flags.liveApiHost;
      if (flags.webhookUrl) config.global.WebHookUrlsV2 = flags.webhookUrl;
      if (flags.cookie) config.global.Cookie = flags.cookie;
      if (flags.filename) config.global.FileNameRecordTemplate = flags.filename;
      const mode = flags.mode ?? flags.recordMode ?? 'Standard';
      if (!/^(standard|rawdata|0|1)$/i.test(mode)) usage(`--record-mode must be Standard or RawData, got "${mode}"`);
      config.global.RecordMode = /^(rawdata|1)$/i.test(mode) ? 1 : 0;
      try {
        // brec sets all five even without -d: portable records no danmaku unless asked, whatever the usual defaults.
        Object.assign(config.global, danmakuSettingsFromFlags(flags.danmaku));
      } catch (err) {
        usage((err as Error).message);
      }
      for (const id of roomIds) {
        const roomId = /^\d+$/.test(id) ? Number(id) : NaN;
        if (!Number.isSafeInteger(roomId) || roomId <= 0) usage(`room id must be a positive integer: ${id}`);
        if (!config.findRoom(roomId)) config.addRoom(roomId, true);
      }
      // Made only now that every argument is accepted; a failed start may leave this one empty folder.
      mkdirSync(workDir, { recursive: true });
      await serve(flags, workDir, () => startService({ workDir, config, api, roomsPerWorker: flags.roomsPerWorker }));
    });

  program.command('demo')
    .description('record 3 rooms of a built-in simulator of the live service, with the API on http://127.0.0.1:2356 (a free port when 2356 is taken)')
    .option('--seconds <n>', 'stop after this many seconds', positiveNumberFlag, 60)
    .option('--port <port>', 'HTTP API and UI port; without it 2356, or any free port when 2356 is taken', intFlag(1, 65535))
    .option('--out <dir>', 'where the recordings go', 'liverec-demo')
    .action(async (flags: { seconds: number; port?: number; out: string }) => {
      const outDir = resolve(flags.out);
      const problem = workDirProblem(outDir, true);
      if (problem) fail(problem);
      // Loaded for `demo` only: the simulator's stack has no place in a recorder that runs.
      await (await import('./demo.js')).runDemo({ seconds: flags.seconds, port: flags.port ?? 2356, portIsDefault: flags.port === undefined, outDir });
    });
}
