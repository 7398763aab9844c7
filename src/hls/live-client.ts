// The HLS live client: polls the media playlist, follows the media sequence, fetches each new segment once into a sink.
import { LiverecError } from '../errors.js';
import { fetchText, type HlsHttpOptions } from './http-fetch.js';
import { type MediaPlaylist, type PlaylistSegment, parsePlaylist } from './playlist.js';
import { guessMissing } from './gap-backfill.js';
import { type FetchContext, fetchInitSection, fetchSegmentInto, HlsErrorCode } from './segment-fetch.js';
import { clampTargetMs, type HlsLimits, hlsLimits, maxSegmentBytes } from './hls-limits.js';

/** Where the segments go (the file writers). Chunks are views valid during the call only. */
export interface HlsSink {
  /** The init section (EXT-X-MAP) for the segments that follow. */
  init(bytes: Buffer): void;
  begin(segment: PlaylistSegment): void;
  data(chunk: Uint8Array): void;
  /** The segment arrived whole; false when its bytes do not form whole boxes/packets (it is dropped and fetched again). */
  end(): boolean;
  /** The fetch failed part way: whatever was written of this segment is removed. */
  abort(): void;
  /**
   * Segments of `durationMs` in all could not be obtained. The sink reports them as a gap only when a later segment
   * is written after them into the same file: missing segments at the end of a stream are no hole.
   */
  missed(durationMs: number): void;
}

/** Carried from one connection to the next of a session, so a reconnect neither repeats nor silently skips segments. */
export interface HlsResume {
  lastSeq: number | null;
  /** The EXT-X-MAP of the segment `lastSeq` ('' for none): missing segments are guessed only under the same one. */
  lastMap?: string;
}

export interface HlsClientOptions {
  /** The same playlist on every host the service offered, most wanted first (host rotation goes down this list). */
  playlistUrls: string[];
  http: HlsHttpOptions;
  sink: HlsSink;
  resume: HlsResume;
  /** Bytes received (playlists and segments), for ioStats. */
  onNetwork(bytes: number): void;
  log(level: 'debug' | 'info' | 'warn', msg: string, fields?: Record<string, unknown>): void;
  /**
   * A late start: the segments before the first playlist's window that the CDN still has, oldest first (see
   * backfill/reach-back.ts); they are written before the listed ones, and the whole window is taken.
   */
  reachBack?(first: PlaylistSegment, base: string, listed: readonly PlaylistSegment[]): Promise<{ seg: PlaylistSegment; bytes: Buffer }[]>;
  /** Attempts per segment before it is counted as a gap (default 3). */
  segmentAttempts?: number;
  /** Size caps from RecordMemoryBudgetMB (default: those of 64 MiB). */
  limits?: HlsLimits;
}

export interface HlsEnd {
  reason: 'eof' | 'stopped' | 'error';
  error?: unknown;
}

export { HlsErrorCode } from './segment-fetch.js';

/** RFC 8216 §6.3.3: start no closer than three target durations from the end. */
const START_SEGMENTS = 3;
const STALL_TARGETS = 3;
/** Segments in a row that could not be fetched while the playlist went on: then the stream is resolved again (new URLs). */
const FAILED_RUN = 3;

export class HlsLiveClient {
  /** Segments written, segments missed (gaps), and playlist anomalies. */
  segments = 0;
  gaps = 0;
  /** Segments that had left the playlist and were still fetched by their numbered URI. */
  backfilled = 0;
  anomalies = 0;
  private host = 0;
  private stopped = false;
  private wake: (() => void) | null = null;
  private readonly abort = new AbortController();
  private mapUri = '';
  /** The playlist's target duration, clamped to 0.5–30 s. */
  targetMs = 1000;
  /** Segments in a row that became gaps. */
  private failedRun = 0;
  /** Why the connection was cut from outside (the capture's progress watchdog). */
  private failure: unknown = null;
  private readonly limits: HlsLimits;

  constructor(private readonly o: HlsClientOptions) {
    if (o.playlistUrls.length === 0) throw new LiverecError('NO_STREAM', 'No HLS playlist URL');
    this.limits = o.limits ?? hlsLimits(64);
  }

  /** Ends the connection with `error` (the in-flight request is cancelled); run() returns it. */
  fail(error: unknown): void {
    this.failure ??= error;
    this.stop();
  }

  /** The host currently read from. */
  get currentUrl(): string {
    return this.o.playlistUrls[this.host % this.o.playlistUrls.length]!;
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
    this.wake?.();
  }

  async run(): Promise<HlsEnd> {
    let lastNew = Date.now();
    /** Since when every playlist request failed (null while they work). */
    let failingSince: number | null = null;
    try {
      while (!this.stopped) {
        const polledAt = Date.now();
        let list: MediaPlaylist;
        let base: string;
        try {
          ({ list, base } = await this.fetchPlaylist());
          failingSince = null;
        } catch (err) {
          if (this.stopped) break;
          const watchdog = this.o.http.watchdogTimeoutMs ?? 10_000;
          this.o.log('warn', `playlist: ${(err as Error).message}`, { code: (err as { code?: string }).code });
          failingSince ??= polledAt;
          if (Date.now() - failingSince >= watchdog) {
            return { reason: 'error', error: new LiverecError(HlsErrorCode.Playlist, `No playlist for ${watchdog} ms`, { cause: err }) };
          }
          this.host++;
          await this.sleep(Math.min(1000, this.targetMs / 2));
          continue;
        }
        const changed = await this.takeNew(list, base);
        if (changed) lastNew = Date.now();
        if (list.endList) return { reason: 'eof' };
        if (Date.now() - lastNew > STALL_TARGETS * this.targetMs) {
          return { reason: 'error', error: new LiverecError(HlsErrorCode.Stalled, `No new segment for ${STALL_TARGETS} target durations (${STALL_TARGETS * this.targetMs} ms)`) };
        }
        // RFC 8216 §6.3.4: reload a target duration after the last request, half of one when nothing changed.
        await this.sleep(Math.max(0, polledAt + (changed ? this.targetMs : this.targetMs / 2) - Date.now()));
      }
    } catch (err) {
      if (!this.stopped) return { reason: 'error', error: err };
    }
    return this.failure ? { reason: 'error', error: this.failure } : { reason: 'stopped' };
  }

  private async fetchPlaylist(): Promise<{ list: MediaPlaylist; base: string }> {
    let { text, url } = await fetchText(this.currentUrl, this.http());
    this.o.onNetwork(Buffer.byteLength(text));
    let parsed = parsePlaylist(text);
    if (parsed.kind === 'master') {
      // A master playlist: follow the variant with the highest bandwidth (as blrec does).
      const best = [...parsed.variants].sort((a, b) => b.bandwidth - a.bandwidth)[0];
      if (!best) throw new LiverecError(HlsErrorCode.Playlist, 'Master playlist without variants');
      ({ text, url } = await fetchText(new URL(best.uri, url).href, this.http()));
      this.o.onNetwork(Buffer.byteLength(text));
      parsed = parsePlaylist(text);
      if (parsed.kind !== 'media') throw new LiverecError(HlsErrorCode.Playlist, 'Variant is not a media playlist');
    }
    this.anomalies += parsed.anomalies;
    const target = clampTargetMs(parsed.targetDuration, this.targetMs);
    if (parsed.targetDuration > 0 && target !== parsed.targetDuration * 1000 && target !== this.targetMs) {
      this.anomalies++;
      this.o.log('warn', `target duration ${parsed.targetDuration} s is outside 0.5–30 s; using ${target / 1000} s`);
    }
    this.targetMs = target;
    return { list: parsed, base: url };
  }

  /** Fetches the segments after the last one taken; returns whether any was new. */
  private async takeNew(list: MediaPlaylist, base: string): Promise<boolean> {
    const segs = list.segments;
    if (segs.length === 0) return false;
    const r = this.o.resume;
    const last = segs.at(-1)!.seq;
    if (r.lastSeq !== null && last < r.lastSeq) {
      // A falling media sequence: the numbering restarted. The writers drop media they already have (by decode time).
      this.o.log('warn', 'media sequence went back: numbering restarted', { lastSeq: r.lastSeq, playlistLast: last });
      r.lastSeq = null;
      this.anomalies++;
    }
    if (r.lastSeq === null && this.o.reachBack) await this.writeOlder(segs, base);
    let from = r.lastSeq === null ? Math.max(0, segs.length - START_SEGMENTS) : segs.findIndex((s) => s.seq > r.lastSeq!);
    if (from < 0) return false;
    if (r.lastSeq !== null && segs[from]!.seq > r.lastSeq + 1) await this.backfill(segs[from]!, base);
    for (const seg of segs.slice(from)) {
      if (this.stopped) break;
      const ok = await this.take(seg, base, this.o.segmentAttempts ?? 3);
      if (this.stopped) break; // cut short by stop(): neither taken nor a gap
      if (!ok) {
        this.gaps++;
        this.o.sink.missed(seg.duration * 1000);
        this.o.log('warn', `segment ${seg.seq} could not be fetched; going on with the next`, { seq: seg.seq });
        if (++this.failedRun >= FAILED_RUN) {
          throw new LiverecError(HlsErrorCode.SegmentsFailing, `${this.failedRun} segments in a row could not be fetched; resolving the stream again`);
        }
      } else this.failedRun = 0;
    }
    return true;
  }

  /** Fetches one segment (its init section first when that changed) and moves the resume point past it. */
  private async take(seg: PlaylistSegment, base: string, attempts: number): Promise<boolean> {
    if (seg.map && seg.map !== this.mapUri) await this.fetchInit(seg.map, base);
    const ok = await fetchSegmentInto({ ...this.fetchContext(base), attempts }, this.o.sink, seg);
    if (this.stopped) return false;
    this.o.resume.lastSeq = seg.seq;
    this.o.resume.lastMap = seg.map;
    if (ok) this.segments++;
    return ok;
  }

  /**
   * The segments before `next` left the playlist unfetched (a slow machine, a slow segment, a reconnect). CDNs keep
   * serving them a while, so each is asked for once by its numbered URI; those that are gone are counted as gaps.
   */
  private async backfill(next: PlaylistSegment, base: string): Promise<void> {
    const r = this.o.resume;
    const after = r.lastSeq!;
    const missing = next.seq - after - 1;
    const sameInit = next.map === (r.lastMap ?? next.map) && !next.discontinuity;
    let got = 0;
    const guessed = sameInit ? guessMissing(after, next) : [];
    for (const seg of guessed) {
      if (this.stopped) return;
      if (await this.take(seg, base, 1)) got++;
      else this.o.sink.missed(seg.duration * 1000); // in order: a hole only if a later segment lands after it
    }
    if (this.stopped) return;
    r.lastSeq = next.seq - 1;
    this.backfilled += got;
    this.gaps += missing - got;
    if (guessed.length === 0) this.o.sink.missed(missing * next.duration * 1000);
    const fields = { after, next: next.seq, fetched: got };
    if (got === missing) this.o.log('info', `${missing} segment(s) had left the playlist; fetched them by their numbered URIs`, fields);
    else this.o.log('warn', `gap: ${missing - got} segment(s) left the playlist before they were fetched`, fields);
  }

  /** Writes what `reachBack` found; the listed segments then follow from the first one. */
  private async writeOlder(listed: readonly PlaylistSegment[], base: string): Promise<void> {
    const first = listed[0]!;
    const older = await this.o.reachBack!(first, base, listed);
    if (this.stopped) return;
    if (older.length === 0) {
      // Nothing older (a stream a few seconds old: its start is listed): the whole window, not just the live edge.
      this.o.resume.lastSeq = first.seq - 1;
      return;
    }
    if (first.map && first.map !== this.mapUri) await this.fetchInit(first.map, base);
    for (const { seg, bytes } of older) {
      this.o.sink.begin(seg);
      this.o.sink.data(bytes);
      if (this.o.sink.end()) this.segments++;
      else this.o.sink.abort();
    }
    this.backfilled += older.length;
    this.o.resume.lastSeq = first.seq - 1;
    this.o.resume.lastMap = first.map;
    this.o.log('info', `late start: ${older.length} segment(s) before the live window fetched by their numbered URIs`, { from: older[0]!.seg.seq });
  }

  private async fetchInit(uri: string, base: string): Promise<void> {
    this.o.sink.init(await fetchInitSection(this.fetchContext(base), uri));
    this.mapUri = uri;
  }

  private fetchContext(base: string): FetchContext {
    return {
      attempts: this.o.segmentAttempts ?? 3,
      url: (uri, attempt) => this.resolve(uri, base, attempt),
      http: () => this.http(),
      onNetwork: (n) => this.o.onNetwork(n),
      log: (msg, fields) => this.o.log('warn', msg, fields),
      stopped: () => this.stopped,
      pause: (attempt) => this.sleep(Math.min(500 * attempt, this.targetMs / 2)),
      maxInitBytes: this.limits.maxInitBytes,
      maxSegmentBytes: maxSegmentBytes(this.limits, this.targetMs),
    };
  }

  /** A URI from the playlist at `base`; later attempts resolve it against the next hosts' playlist URLs. */
  private resolve(uri: string, base: string, attempt: number): string {
    if (attempt === 0) return new URL(uri, base).href;
    const urls = this.o.playlistUrls;
    return new URL(uri, urls[(this.host + attempt) % urls.length]!).href;
  }

  private http(): HlsHttpOptions {
    return { ...this.o.http, signal: this.abort.signal };
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done(): void {
        clearTimeout(timer);
        self.wake = null;
        resolve();
      }
      this.wake = done;
    });
  }
}
