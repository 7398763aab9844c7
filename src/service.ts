// Composition root: one process-wide API limiter, the recorder, the webhook outbox and the HTTP API, started and stopped together.
import { existsSync } from 'node:fs';
import { ApiLimiter, setProcessLimiter } from './bilibili/api-limiter.js';
import type { ClientTestSwitches } from './bilibili/client-options.js';
import type { ConfigStore } from './config/store.js';
import { startApiServer, type ApiServer, type ApiServerOptions } from './api/server.js';
import type { EventBus } from './events/bus.js';
import { logger } from './log/logger.js';
import { attachRoomEventLog } from './log/room-events.js';
import { Recorder } from './rooms/recorder.js';
import { WebhookOutbox } from './webhook/outbox.js';
import { PostQueue } from './post/queue.js';
import { closePostPool } from './post/pool.js';
import { createServiceRunner } from './post/runners.js';
import { parseGB, type RetentionPlan } from './retention/plan.js';
import { Retention } from './retention/retention.js';
import { Notifier } from './notify/notifier.js';
import { AccountService } from './accounts/account-service.js';
import type { AccountBackend } from './accounts/account-backend.js';
import type { GetWebhookSettings } from './webhook/settings.js';

/** How long a stop waits for pending webhook deliveries before journaling the rest (documented in docs/security.md). */
export const WEBHOOK_STOP_GRACE_MS = 2000;

export interface ServiceOptions {
  workDir: string;
  config: ConfigStore;
  /** The HTTP API; omitted = no web server (brec starts none without --bind). */
  api?: Omit<ApiServerOptions, 'recorder' | 'deliveries' | 'replayDelivery' | 'jobs' | 'clips' | 'retention' | 'notifyTest' | 'accounts'>;
  roomsPerWorker?: number;
  allowTestFaults?: boolean;
  /** Test-only: WBI signing or guest identity off for the whole run (see ClientTestSwitches); never a config field. */
  clientTestSwitches?: ClientTestSwitches;
  /** Pass a bus to subscribe before the first room starts (no early event is missed). */
  bus?: EventBus;
  /** Another outbox than the file journal under <workDir>/.liverec (the cluster's, in PostgreSQL). */
  outbox?: (getSettings: GetWebhookSettings) => ServiceOutbox;
  /** Another place for the logins than <workDir>/.liverec/accounts.json (the cluster's, in PostgreSQL). */
  accountStore?: AccountBackend;
}

/** What the service needs of an outbox. */
export type ServiceOutbox = Pick<WebhookOutbox, 'start' | 'attach' | 'drain' | 'close' | 'recentDeliveries' | 'replay'>;

export interface Service {
  recorder: Recorder;
  outbox: ServiceOutbox;
  /** Post-file jobs (src/post/). */
  jobs: PostQueue;
  /** Notifications (src/notify/). */
  notifier: Notifier;
  /** Logins (src/accounts/). */
  accounts: AccountService;
  /** Deletes the oldest closed recordings past the Retention* limits (src/retention/). */
  retention: Retention;
  api: ApiServer | null;
  /** Graceful stop: files closed with final metadata, SessionEnded journaled, config saved. */
  close(): Promise<void>;
}

export async function startService(options: ServiceOptions): Promise<Service> {
  const { config, workDir } = options;
  // One budget for every live-API call of the process: at most ApiBudgetPerMinute calls in any sliding minute (less
  // while the learned rate is below it), queued by priority (docs/scale.md).
  const limiter = ApiLimiter.create({ perMinute: config.effective('ApiBudgetPerMinute') });
  setProcessLimiter(limiter);
  // Jobs, retention and notifications start after the bind; the routes reach them once they exist.
  const late: { jobs?: PostQueue; retention?: Retention; notifier?: Notifier; recorder?: Recorder } = {};
  const accounts = new AccountService({
    workDir, config, store: options.accountStore,
    onChange: () => late.recorder?.pushSettings(),
    notify: (message, extra) => void late.notifier?.notify('account-lost', null, message, extra),
  });
  const recorder = new Recorder({
    workDir, config, bus: options.bus, limiter: limiter.toShared(), roomsPerWorker: options.roomsPerWorker, allowTestFaults: options.allowTestFaults,
    clientTestSwitches: options.clientTestSwitches, accounts,
  });
  late.recorder = recorder;
  const getSettings: GetWebhookSettings = () => ({
    webHookUrls: config.effective('WebHookUrls'),
    webHookUrlsV2: config.effective('WebHookUrlsV2'),
    timeoutMs: config.effective('TimingWebhookTimeout'),
  });
  const outbox = options.outbox ? options.outbox(getSettings) : new WebhookOutbox({ workDir, getSettings });
  // The HTTP API binds first: a port in use (the likeliest failed start) then leaves the work directory as it was,
  // with no config.json, journal or lock written. Nothing has started yet, so there is nothing to close.
  let api: ApiServer | null = null;
  if (options.api) {
    api = await startApiServer({
      ...options.api, recorder, deliveries: () => outbox.recentDeliveries(), replayDelivery: (id, url) => outbox.replay(id, url),
      jobs: () => late.jobs?.list() ?? [],
      clips: { enqueue: (roomId, source, params) => { if (!late.jobs) throw new Error('the job queue has not started'); return late.jobs.enqueueClip(roomId, source, params); } },
      retention: (): RetentionPlan => late.retention?.preview() ?? { totalBytes: 0, freeBytes: null, deletions: [], protected: [] },
      notifyTest: async () => (late.notifier ? late.notifier.test() : []),
      accounts,
    });
  }
  try {
    await outbox.start();
  } catch (err) {
    await api?.close();
    throw err;
  }
  outbox.attach(recorder.bus);
  attachRoomEventLog(recorder.bus);
  // After the outbox: a file's FileClosed is journaled for webhooks before its jobs are, and PostProcessed follows both.
  const jobs = new PostQueue({
    workDir,
    settings: (roomId) => {
      const room = config.findRoom(roomId);
      return {
        PostRemuxToMp4: config.effective('PostRemuxToMp4', room), PostDanmakuToAss: config.effective('PostDanmakuToAss', room),
        PostCommand: config.effective('PostCommand', room), PostCommandTimeout: config.effective('PostCommandTimeout', room),
        PostJobConcurrency: config.effective('PostJobConcurrency'), SaveStreamCover: config.effective('SaveStreamCover', room),
        StorageS3Url: config.effective('StorageS3Url'),
      };
    },
    runner: createServiceRunner((roomId) => {
      const room = config.findRoom(roomId);
      return room ? config.resolveRoom(room) : config.resolveRoom({ roomId, autoRecord: false, overrides: {}, extra: {} });
    }, () => ({ url: config.effective('StorageS3Url'), deleteLocal: config.effective('StorageDeleteLocal') }), () => config.effective('NotifyUrls')),
    emit: (event) => recorder.bus.emit(event),
  });
  jobs.attach(recorder.bus);
  jobs.start();
  const notifier = new Notifier({ config, recorder, queue: jobs });
  notifier.attach(recorder.bus);
  const retention = new Retention({
    workDir,
    limits: () => ({
      maxAgeDays: config.effective('RetentionMaxAgeDays'),
      maxTotalGB: parseGB(config.effective('RetentionMaxTotalGB')),
      minFreeGB: parseGB(config.effective('RetentionMinFreeGB')),
    }),
    protectedPaths: () => [...recorder.openPaths(), ...jobs.busyPaths()],
    emit: (event) => recorder.bus.emit(event),
    snapshot: (roomId) => recorder.roomSnapshot(roomId),
  });
  Object.assign(late, { jobs, retention, notifier });
  // brec rewrites the config at every start; liverec only writes a missing one, so config.backup.json keeps
  // the user's own file after the first save.
  if (config.path && !existsSync(config.path)) {
    try {
      config.save();
    } catch (err) {
      // A full disk must not stop the start; the file is written with the first change that can be saved.
      logger().error({ err }, 'config.json could not be written at start');
    }
  }
  try {
    await accounts.start();
    await recorder.start();
    retention.start(recorder.bus);
  } catch (err) {
    await api?.close();
    await recorder.close(1000);
    await jobs.close();
    await closePostPool();
    await outbox.close();
    throw err;
  }
  let closing: Promise<void> | null = null;
  return {
    recorder, outbox, jobs, retention, notifier, accounts, api,
    close: () => (closing ??= (async () => {
      retention.close();
      notifier.close();
      accounts.close();
      await recorder.close(3000);
      await api?.close();
      // Running jobs are cut; the journal still says running, so the next start runs them again.
      await jobs.close();
      await closePostPool();
      // The stop's own FileClosed/SessionEnded were just published: give a healthy receiver the chance to get them.
      await outbox.drain(WEBHOOK_STOP_GRACE_MS);
      await outbox.close();
      logger().info('liverec stopped');
    })()),
  };
}

/** Stops the service on SIGINT/SIGTERM and exits 0 (1 if the stop itself failed); a second signal exits at once. */
export function stopOnSignals(service: Pick<Service, 'close'>, onStop?: () => void | Promise<void>): void {
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) process.exit(130);
    stopping = true;
    logger().info({ signal }, 'stopping');
    // Files (≤ 3 s) + webhook grace (≤ 2 s) + slack.
    const hardExit = setTimeout(() => process.exit(1), 7000);
    hardExit.unref();
    service.close().then(async () => {
      await onStop?.();
      process.exit(0);
    }, (err: unknown) => {
      logger().error({ err }, 'stop failed');
      process.exit(1);
    });
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
