// Frames from a stream's fMP4 HLS window, kept while a dropped FLV connection is replaced: the live list, then older segments by guessed URI.
import { guessUri } from '../gap-backfill.js';
import { olderShareInit } from './reach-back.js';
import { fetchStreamed, fetchText, type HlsHttpOptions } from '../http-fetch.js';
import { type Mp4Init, parseInit } from '../mp4-boxes.js';
import { type MediaPlaylist, type PlaylistSegment, parsePlaylist } from '../playlist.js';
import type { MediaFrame } from '../../rooms/gaps/frames.js';
import { readSamples } from './fmp4-samples.js';

export interface FrameSourceOptions {
  /** The fMP4 playlist on every offered host (asked for when the source starts; `signal` aborts on stop()). */
  urls: (signal: AbortSignal) => Promise<string[]>;
  http: HlsHttpOptions;
  /** Segments further back than this from the newest are neither fetched nor kept. */
  maxSeconds: number;
  /** Frame bytes kept at most: over it the oldest segments go (what they held becomes part of a reported gap). */
  maxBytes: number;
  onNetwork?(bytes: number): void;
  log(level: 'debug' | 'info' | 'warn', msg: string, fields?: Record<string, unknown>): void;
}

interface Held {
  seq: number;
  frames: MediaFrame[];
  seconds: number;
  bytes: number;
}

async function fetchBytes(url: string, http: HlsHttpOptions, onNetwork?: (n: number) => void): Promise<Buffer> {
  const parts: Buffer[] = [];
  await fetchStreamed(url, http, (c) => {
    onNetwork?.(c.length);
    parts.push(Buffer.from(c));
  });
  return Buffer.concat(parts);
}

/**
 * Polls the playlist once per target duration from `start()` until `stop()`, keeping every segment's frames
 * (ms on the HLS timeline). `older()` reaches back one segment at a time past the oldest listed one.
 */
export class HlsFrameSource {
  private readonly held = new Map<number, Held>();
  /** Init sections read, by EXT-X-MAP URI (a window across a header change lists two). */
  private readonly inits = new Map<string, Mp4Init | null>();
  private base = '';
  private urls: string[] = [];
  private oldestListed: PlaylistSegment | null = null;
  private olderDone = false;
  private targetMs = 1000;
  private timer: NodeJS.Timeout | null = null;
  private readonly abort = new AbortController();
  private polling: Promise<void> | null = null;
  /** Segments fetched, and those that were gone (404 or failed). */
  fetched = 0;
  failed = 0;
  private pollFailures = 0;
  /** When a poll first brought frames (0: not yet). */
  framesSince = 0;

  constructor(private readonly o: FrameSourceOptions) {}

  start(): void {
    const loop = (): void => {
      this.timer = null;
      this.polling = this.poll().then(() => undefined, (err) => this.failedPoll(err));
      void this.polling.then(() => {
        if (!this.abort.signal.aborted) this.timer = setTimeout(loop, this.targetMs);
      });
    };
    loop();
  }

  stop(): void {
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Waits `ms`, or less when stop() comes first (a plan waiting for the window gives up at once). */
  idle(ms: number): Promise<void> {
    const { signal } = this.abort;
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Waits for the poll in progress (if any) and runs one more. */
  async refresh(): Promise<void> {
    await this.polling;
    await this.poll().catch((err) => this.failedPoll(err));
  }

  private failedPoll(err: unknown): void {
    this.pollFailures++;
    this.o.log('debug', `hls fill: ${(err as Error).message}`, { code: (err as { code?: string }).code });
  }

  /** No HLS to read: the room offers none, or its playlist failed every time so far. */
  get broken(): boolean {
    return this.held.size === 0 && this.pollFailures >= 3;
  }

  get targetDurationMs(): number {
    return this.targetMs;
  }

  /** Every frame held, in stream order (by time; video before audio at the same ms). */
  frames(): MediaFrame[] {
    const segs = [...this.held.values()].sort((a, b) => a.seq - b.seq);
    return segs.flatMap((s) => s.frames).sort((a, b) => a.ms - b.ms || Number(b.video) - Number(a.video));
  }

  private http(): HlsHttpOptions {
    return { ...this.o.http, signal: this.abort.signal };
  }

  private async playlist(): Promise<MediaPlaylist> {
    if (this.urls.length === 0) {
      try {
        this.urls = await this.o.urls(this.abort.signal);
      } catch (err) {
        this.pollFailures = Math.max(this.pollFailures, 2); // no HLS offered: broken after this failure
        throw err;
      }
    }
    let { text, url } = await fetchText(this.urls[0]!, this.http());
    this.o.onNetwork?.(text.length);
    let list = parsePlaylist(text);
    if (list.kind === 'master') {
      const best = [...list.variants].sort((a, b) => b.bandwidth - a.bandwidth)[0];
      if (!best) throw new Error('master playlist without variants');
      ({ text, url } = await fetchText(new URL(best.uri, url).href, this.http()));
      list = parsePlaylist(text);
      if (list.kind !== 'media') throw new Error('variant is not a media playlist');
    }
    this.base = url;
    if (list.targetDuration > 0) this.targetMs = list.targetDuration * 1000;
    return list;
  }

  /** Fetches the playlist and every listed segment not held yet. */
  async poll(): Promise<void> {
    if (this.abort.signal.aborted) return;
    const list = await this.playlist();
    const first = list.segments[0];
    if (!first) return;
    if (!this.oldestListed || first.seq < this.oldestListed.seq || this.held.size === 0) this.oldestListed = first;
    for (const seg of list.segments) {
      if (this.abort.signal.aborted) return;
      if (!this.held.has(seg.seq)) await this.take(seg);
    }
    this.trim();
    if (this.held.size > 0 && this.framesSince === 0) this.framesSince = Date.now();
  }

  /** Fetches the segment before the oldest held one by its guessed URI; false when it is gone or out of reach. */
  async older(): Promise<boolean> {
    if (this.olderDone || this.abort.signal.aborted || !this.oldestListed || this.held.size === 0) return false;
    const seq = Math.min(...this.held.keys()) - 1;
    const span = [...this.held.values()].reduce((n, s) => n + s.seconds, 0);
    // Past a discontinuity the older segments' init section is not known: their frames would not decode under it.
    const uri = span < this.o.maxSeconds && olderShareInit(this.oldestListed) ? guessUri(this.oldestListed, seq) : null;
    // Kept only when it fits: one trimmed at once (over maxBytes) ends the reach back.
    const ok = uri !== null && (await this.take({ ...this.oldestListed, seq, uri, title: '' })) && this.held.has(seq);
    if (!ok) this.olderDone = true;
    return ok;
  }

  private async take(seg: PlaylistSegment): Promise<boolean> {
    try {
      if (!this.inits.has(seg.map)) {
        const init = seg.map ? parseInit(await fetchBytes(new URL(seg.map, this.base).href, this.http(), this.o.onNetwork)) : null;
        this.inits.set(seg.map, init);
        if (this.inits.size > 8) this.inits.delete(this.inits.keys().next().value!);
      }
      const bytes = await fetchBytes(new URL(seg.uri, this.base).href, this.http(), this.o.onNetwork);
      const frames = this.toFrames(bytes, this.inits.get(seg.map) ?? null);
      this.held.set(seg.seq, { seq: seg.seq, frames, seconds: seg.duration, bytes: frames.reduce((n, f) => n + f.payload.length, 0) });
      this.trim();
      this.fetched++;
      return true;
    } catch {
      this.failed++;
      return false;
    }
  }

  private toFrames(bytes: Buffer, init: Mp4Init | null): MediaFrame[] {
    const tracks = init?.tracks ?? [];
    const out: MediaFrame[] = [];
    for (const s of readSamples(bytes, init).samples) {
      const t = tracks.find((x) => x.trackId === s.trackId);
      if (!t || (t.handler !== 'vide' && t.handler !== 'soun')) continue;
      const ms = (v: number): number => Math.round((v * 1000) / t.timescale);
      // A view into the segment's own bytes (fetchBytes made them): no copy per sample.
      out.push({ video: t.handler === 'vide', ms: ms(s.dts), ctsMs: ms(s.cts), key: s.key, payload: s.bytes, init: init?.key });
    }
    return out;
  }

  /** Drops segments further back than maxSeconds from the newest, and the oldest ones over maxBytes. */
  private trim(): void {
    const seqs = [...this.held.keys()].sort((a, b) => b - a);
    let seconds = 0;
    let bytes = 0;
    for (const seq of seqs) {
      const h = this.held.get(seq)!;
      seconds += h.seconds;
      bytes += h.bytes;
      if (seconds > this.o.maxSeconds + 2 * (this.targetMs / 1000) || bytes > this.o.maxBytes) this.held.delete(seq);
    }
  }
}
