// Tells people what happens: stream start/end, recording errors, unavailableReason changes, low disk, failed jobs.
import type { ConfigStore } from '../config/store.js';
import type { EventBus } from '../events/bus.js';
import type { RecorderEvent } from '../events/types.js';
import { logger as rootLogger, type Logger } from '../log/logger.js';
import type { Recorder, RoomNotice } from '../rooms/recorder.js';
import { renderTemplate } from '../template/liquid-engine.js';
import type { PostQueue } from '../post/queue.js';
import { noticeParams } from './notify-job.js';
import { sendAll, type NotifyMessage, type SendResult } from './send.js';
import { parseTargets, type Target } from './targets.js';

export const DEFAULT_NOTIFY_TEMPLATE = '{{ message }}';
/** The same (room, kind) notice is sent at most once in this window (a stuck disk or a flapping error is one message). */
const REPEAT_WINDOW_MS = 10 * 60_000;

const TITLES: Record<string, string> = {
  'stream-start': 'started streaming', 'stream-end': 'stopped streaming', 'recording-error': 'recording error',
  unavailable: 'cannot be recorded', available: 'can be recorded again', 'low-disk': 'low disk space', 'job-failed': 'post-processing failed', 'account-lost': 'account login lost', test: 'test',
};

export interface NotifierOptions {
  config: ConfigStore;
  recorder: Pick<Recorder, 'notices' | 'roomSnapshot'>;
  /** The durable job queue: each message to each target is journaled and retried there. Without it, sent once at once. */
  queue?: Pick<PostQueue, 'enqueueNotice'>;
  logger?: Logger;
}

export class Notifier {
  private readonly log: Logger;
  private readonly last = new Map<string, number>();
  private readonly detachers: (() => void)[] = [];

  constructor(private readonly options: NotifierOptions) {
    this.log = options.logger ?? rootLogger().child({ component: 'notify' });
  }

  attach(bus: EventBus): void {
    this.detachers.push(bus.on((e) => this.onEvent(e)));
    const onNotice = (n: RoomNotice): void => this.onNotice(n);
    this.options.recorder.notices.add(onNotice);
    this.detachers.push(() => this.options.recorder.notices.delete(onNotice));
  }

  close(): void {
    for (const d of this.detachers.splice(0)) d();
  }

  private onEvent(e: RecorderEvent): void {
    const d = e.EventData;
    if (e.EventType === 'StreamStarted') this.notify('stream-start', d.RoomId, `${d.Name || d.RoomId} ${TITLES['stream-start']}: ${d.Title}`, { area: `${d.AreaNameParent}·${d.AreaNameChild}` });
    else if (e.EventType === 'StreamEnded') this.notify('stream-end', d.RoomId, `${d.Name || d.RoomId} ${TITLES['stream-end']}`, {});
    else if (e.EventType === 'PostProcessed' && !e.EventData.Succeeded) {
      const failed = e.EventData.Jobs.filter((j) => j.State === 'failed');
      this.notify('job-failed', d.RoomId, `${e.EventData.RelativePath}: ${failed.map((j) => `${j.Kind}: ${j.Error}`).join('; ')}`, { path: e.EventData.RelativePath });
    }
  }

  private onNotice(n: RoomNotice): void {
    const kind = n.kind === 'unavailable' && n.detail === null ? 'available' : n.kind;
    const key = `${n.roomId}:${kind}`;
    if (kind === 'recording-error' || kind === 'low-disk') {
      const at = this.last.get(key) ?? 0;
      if (Date.now() - at < REPEAT_WINDOW_MS) return;
      this.last.set(key, Date.now());
    }
    this.notify(kind, n.roomId, n.detail ?? TITLES[kind]!, { detail: n.detail });
  }

  /**
   * Renders the message for every NotifyUrls target, unless the room opted out, and queues it (one durable job a
   * target, retried with backoff; a failure ends as a failed job in the list); without a queue, sends it at once.
   */
  notify(kind: string, roomId: number | null, message: string, extra: Record<string, unknown>): Promise<SendResult[]> {
    const built = this.build(kind, roomId, message, extra);
    if (!built) return Promise.resolve([]);
    const { queue } = this.options;
    if (queue) {
      queue.enqueueNotice(roomId, noticeParams(built.targets, built.m));
      this.log.info({ roomId, kind, targets: built.targets.map((t) => t.redacted) }, 'notification queued');
      return Promise.resolve([]);
    }
    return this.send(built.targets, built.m);
  }

  private build(kind: string, roomId: number | null, message: string, extra: Record<string, unknown>): { targets: Target[]; m: NotifyMessage } | null {
    const { config } = this.options;
    const room = roomId === null ? undefined : config.findRoom(roomId);
    if (roomId !== null && !config.effective('NotifyEnabled', room)) return null;
    const { targets, errors } = parseTargets(config.effective('NotifyUrls'));
    if (errors.length) this.log.warn({ code: 'NOTIFY_BAD_URL', errors }, 'NotifyUrls has lines that are not notification URLs; they are skipped');
    if (targets.length === 0) return null;
    const snap = roomId === null ? null : this.options.recorder.roomSnapshot(roomId);
    const title = `[liverec] ${snap?.Name || (roomId ?? '')} ${TITLES[kind] ?? kind}`.replace(/\s+/g, ' ').trim();
    const scope = { kind, message, title, roomId, name: snap?.Name ?? '', roomTitle: snap?.Title ?? '', time: new Date().toISOString(), ...extra };
    let body = message;
    try {
      body = renderTemplate(config.effective('NotifyTemplate') || DEFAULT_NOTIFY_TEMPLATE, scope, Date.now());
    } catch (err) {
      this.log.warn({ code: 'NOTIFY_TEMPLATE', error: (err as Error).message }, 'NotifyTemplate could not be rendered; the plain message is sent');
    }
    return { targets, m: { title, body, kind, roomId } };
  }

  private send(targets: Target[], m: NotifyMessage): Promise<SendResult[]> {
    return sendAll(targets, m).then((results) => {
      for (const r of results) {
        if (r.ok) this.log.info({ roomId: m.roomId, kind: m.kind, target: r.target }, 'notification sent');
        else this.log.warn({ roomId: m.roomId, kind: m.kind, target: r.target, error: r.error }, 'notification not sent');
      }
      return results;
    });
  }

  /** POST /api/notify/test: one test message to every target, results per target. */
  test(): Promise<SendResult[]> {
    // Sent at once, never queued: the user waits for each target's answer.
    const built = this.build('test', null, 'liverec test notification: if you read this, NotifyUrls works.', {});
    return built ? this.send(built.targets, built.m) : Promise.resolve([]);
  }
}
