// liverec's Prometheus metrics: per-room series (labels room_id, name), workers, API limiter, webhooks and disk.
import { statfs } from 'node:fs/promises';
import { Counter, Gauge, Registry } from 'prom-client';
import { getProcessLimiter } from '../../bilibili/api-limiter.js';
import { logRing } from '../../log/logger.js';
import type { Recorder } from '../../rooms/recorder.js';
import type { Room } from '../../rooms/room.js';
import type { WebhookDelivery } from '../../webhook/deliveries-schema.js';
import { DeliveryOutcomes } from './delivery-outcomes.js';
import { registerApiBudgetMetrics } from './api-budget-metrics.js';
import { GapSeconds } from './gap-metrics.js';
import { processRegistry } from './process-metrics.js';
import { RoomCounters, type RoomTotals } from './room-counters.js';

export interface RecorderMetricsOptions {
  recorder: Recorder;
  deliveries?: () => WebhookDelivery[];
  /** Connected event-stream clients (optional). */
  eventClients?: () => number;
}

const ROOM_LABELS = ['room_id', 'name'] as const;
type RoomLabels = Record<(typeof ROOM_LABELS)[number], string>;

export class RecorderMetrics {
  readonly registry = new Registry();
  private readonly counters = new RoomCounters();
  private readonly outcomes = new DeliveryOutcomes();
  private readonly gapSeconds = new GapSeconds();
  /** Rooms whose stats changed since the last sample (the recorder's change feed: idle rooms are never visited). */
  private readonly statsChanged = new Set<Room>();
  private readonly offs: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private pauses = 0;
  private lastPauseUntil = 0;
  private disk: { free: number; total: number } | null = null;

  constructor(private readonly options: RecorderMetricsOptions) {
    this.define();
  }

  /** Starts the 1-s sampler and the event/log subscriptions (idempotent). */
  start(): void {
    if (this.timer) return;
    this.offs.push(this.options.recorder.bus.on((e) => this.counters.onEvent(e)));
    this.offs.push(this.options.recorder.bus.on((e) => this.gapSeconds.onEvent(e)));
    this.offs.push(logRing.onEntry((_id, log) => this.counters.onLog(log)));
    this.offs.push(this.options.recorder.changes.on((room, change) => {
      if (change.kind === 'stats') this.statsChanged.add(room);
      else if (change.kind === 'removed') {
        this.statsChanged.delete(room);
        this.counters.forget(room.roomId);
      }
    }));
    // Rooms that recorded before the metrics started (the feed tells only of later changes).
    for (const room of this.options.recorder.rooms) if (room.recordingStats.totalInputBytes > 0 || room.recordingStats.totalOutputBytes > 0) this.statsChanged.add(room);
    this.timer = setInterval(() => this.sample(), 1000);
    this.timer.unref();
    this.sample();
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.offs.splice(0).forEach((off) => off());
  }

  /** The whole exposition: process metrics, then liverec's. */
  async scrape(): Promise<string> {
    this.start();
    this.sample();
    this.disk = await statfs(this.options.recorder.workDir).then((s) => ({ free: s.bavail * s.bsize, total: s.blocks * s.bsize }), () => null);
    return `${await processRegistry().metrics()}\n${await this.registry.metrics()}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private sample(): void {
    this.counters.sample(this.statsChanged);
    this.statsChanged.clear();
    this.outcomes.sample(this.options.deliveries?.() ?? []);
    // The limiter lives in shared memory written by every room thread; a new, later pause end is a new pause.
    const until = getProcessLimiter().pausedUntil();
    if (until > Date.now() && until !== this.lastPauseUntil) {
      if (this.lastPauseUntil < Date.now()) this.pauses++;
      this.lastPauseUntil = until;
    }
  }

  private define(): void {
    const reg = [this.registry];
    const rooms = (): { labels: RoomLabels; room: Recorder['rooms'][number]; totals: RoomTotals }[] =>
      this.options.recorder.rooms.map((room) => ({ labels: { room_id: String(room.roomId), name: room.state.name }, room, totals: this.counters.get(room.roomId) }));
    const roomCounter = (name: string, help: string, pick: (t: RoomTotals) => number): void => {
      new Counter({ name, help, labelNames: ROOM_LABELS, registers: reg, collect() {
        this.reset();
        for (const r of rooms()) this.inc(r.labels, pick(r.totals));
      } });
    };
    const roomGauge = (name: string, help: string, pick: (r: ReturnType<typeof rooms>[number]['room']) => number): void => {
      new Gauge({ name, help, labelNames: ROOM_LABELS, registers: reg, collect() {
        this.reset();
        for (const r of rooms()) {
          const v = pick(r.room);
          if (Number.isFinite(v)) this.set(r.labels, v);
        }
      } });
    };
    roomCounter('liverec_room_received_bytes_total', 'Media bytes received from the stream (recordingStats.totalInputBytes, summed over sessions)', (t) => t.inputBytes);
    roomCounter('liverec_room_written_bytes_total', 'Media bytes written to files (recordingStats.totalOutputBytes, summed over sessions)', (t) => t.outputBytes);
    roomCounter('liverec_room_files_total', 'Files opened (FileOpening events)', (t) => t.files);
    roomCounter('liverec_room_sessions_total', 'Recording sessions started (SessionStarted events)', (t) => t.sessions);
    roomCounter('liverec_room_reconnects_total', 'Stream connections that ended without a stop (each is followed by a reconnect while live)', (t) => t.reconnects);
    roomCounter('liverec_room_gaps_total', 'Stream connections cut by an error, stall or repair-system disconnect (media missing at the cut)', (t) => t.gaps);
    roomGauge('liverec_room_pace', 'recordingStats.durationRatio: media recorded per wall time in the last interval (absent when NaN)', (r) => r.recordingStats.durationRatio);
    roomGauge('liverec_room_network_mbps', 'ioStats.networkMbps (mebibits/s over the last 2-s interval)', (r) => r.ioStats.networkMbps);
    roomGauge('liverec_room_recording', '1 while the room records', (r) => Number(r.state.recording));
    roomGauge('liverec_room_streaming', '1 while the room is live', (r) => Number(r.state.streaming));
    roomGauge('liverec_room_danmaku_connected', '1 while the danmaku socket is connected', (r) => Number(r.state.danmakuConnected));
    new Gauge({
      name: 'liverec_room_unavailable', help: '1 while the service will not let liverec record the room, labelled with unavailableReason (paid, password, guardOnly, drmOnly, riskControl, notFound); absent otherwise',
      labelNames: [...ROOM_LABELS, 'reason'], registers: reg, collect() {
        this.reset();
        for (const r of rooms()) if (r.room.state.unavailableReason) this.set({ ...r.labels, reason: r.room.state.unavailableReason }, 1);
      },
    });
    new Gauge({
      name: 'liverec_room_recording_source', help: '1 for what the room records now: kind origin, reencode, transcode or unknown (docs/origin.md)',
      labelNames: [...ROOM_LABELS, 'kind', 'qn', 'codec'], registers: reg, collect() {
        this.reset();
        for (const r of rooms()) {
          const src = r.room.state.recordingSource;
          if (src) this.set({ ...r.labels, kind: src.kind, qn: String(src.qn), codec: src.codec }, 1);
        }
      },
    });

    const recorder = this.options.recorder;
    const self = this;
    const gauge = (name: string, help: string, value: () => number | null, labelNames: string[] = []): void => {
      new Gauge({ name, help, labelNames, registers: reg, collect() {
        const v = value();
        if (v !== null) this.set(v);
      } });
    };
    gauge('liverec_rooms', 'Rooms configured', () => recorder.rooms.length);
    gauge('liverec_worker_threads', 'Room host worker threads alive', () => recorder.workerCount);
    new Counter({ name: 'liverec_worker_restarts_total', help: 'Room host workers that died and were restarted', registers: reg, collect() {
      this.reset();
      this.inc(recorder.workerRestarts);
    } });
    new Counter({ name: 'liverec_lifecycle_anomalies_total', help: 'Illegal room lifecycle transitions refused (see docs/architecture.md; 0 unless a bug)', registers: reg, collect() {
      this.reset();
      this.inc(recorder.lifecycleAnomalies);
    } });
    gauge('liverec_api_limiter_paused', '1 while live-API calls are paused after a risk-control answer (412/-352)', () => Number(getProcessLimiter().pausedUntil() > Date.now()));
    new Counter({ name: 'liverec_api_limiter_pauses_total', help: 'Live-API pauses observed (sampled every second)', registers: reg, collect() {
      this.reset();
      this.inc(self.pauses);
    } });
    new Counter({ name: 'liverec_webhook_deliveries_total', help: 'Finished webhook deliveries (event, URL) by outcome', labelNames: ['outcome'], registers: reg, collect() {
      this.reset();
      for (const [outcome, n] of Object.entries(self.outcomes.totals)) this.inc({ outcome }, n);
    } });
    new Gauge({ name: 'liverec_webhook_deliveries_pending', help: 'Webhook deliveries not finished yet, by state', labelNames: ['state'], registers: reg, collect() {
      this.reset();
      const counts: Record<string, number> = { queued: 0, sending: 0, retrying: 0 };
      for (const d of self.options.deliveries?.() ?? []) if (d.state in counts) counts[d.state]++;
      for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
    } });
    gauge('liverec_disk_free_bytes', 'Free bytes for liverec on the work directory\'s file system', () => self.disk?.free ?? null);
    gauge('liverec_disk_size_bytes', 'Size of the work directory\'s file system', () => self.disk?.total ?? null);
    registerApiBudgetMetrics(reg, recorder);
    this.gapSeconds.register(this.registry);
    gauge('liverec_event_stream_clients', 'Connected /api/events clients', () => self.options.eventClients?.() ?? 0);
  }
}
