// Switching a running FLV capture to another connection (the origin) at a GOP boundary, with no frame lost or doubled.
import type { StreamDownload } from '../bilibili/stream-download.js';
import type { GroupLimits } from '../flv/group-limits.js';
import { recentGroups } from '../flv/rules/remove-duplicated-chunk.js';
import { FlvStream } from '../flv/stream.js';

/** What a capture gives the switch: the GOPs it kept, and a way to end at its last whole GOP. */
export interface HandOffSource {
  keptGroups(): Array<[number, number]>;
  handOff(): Array<[number, number]>;
}

/** The part of a download a capture reads. */
export type CaptureInput = Pick<StreamDownload, 'url' | 'openedAt' | 'bytesReceived' | 'consume' | 'stop'>;

export interface StandbyOptions {
  /** Without a shared GOP by then, the old connection is cut at its last whole GOP anyway (a real re-encode shares none). */
  matchTimeoutMs: number;
  /** Bytes the standby connection may hold before the cut (beyond it the switch is abandoned). */
  maxBufferBytes: number;
  groupLimits?: GroupLimits;
}

export interface HandOffResult {
  /** The new connection, replaying what it sent during the overlap, for the next capture. */
  input: CaptureInput;
  /** The old connection's kept GOPs: the next capture must treat them as written. */
  kept: Array<[number, number]>;
  /** Whether the cut is at a GOP both connections carried (else at the old file's last whole GOP). */
  shared: boolean;
}

/**
 * The new connection in standby: its bytes are kept and parsed (no file) while the old capture goes on writing.
 * As soon as one of its GOPs is one the old capture kept (same content fingerprint as the duplicate-GOP rule's), the
 * old capture hands off at its last whole GOP; the next capture replays the kept bytes, drops the GOPs the old one
 * wrote and writes on from the first one it did not. Resolves null when the new connection fails or ends first: the
 * old capture is untouched, so falling back costs no gap.
 */
export function standby(download: StreamDownload, old: HandOffSource, options: StandbyOptions): Promise<HandOffResult | null> {
  const analysis = new FlvStream({ preset: 'recording', writer: null, stripFillerOnCopy: true, groupLimits: options.groupLimits });
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let forward: ((chunk: Uint8Array) => void) | null = null;
  let settled = false;
  return new Promise((resolve) => {
    const finish = (result: HandOffResult | null): void => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      clearTimeout(timeout);
      if (!result) download.stop();
      resolve(result);
    };
    const handOff = (shared: boolean): void => {
      if (settled) return;
      const input: CaptureInput = {
        url: download.url,
        openedAt: download.openedAt,
        get bytesReceived() { return download.bytesReceived; },
        stop: () => download.stop(),
        consume: (onChunk) => {
          for (const b of kept.splice(0)) onChunk(b);
          forward = onChunk;
          return done;
        },
      };
      finish({ input, kept: old.handOff(), shared });
    };
    const check = (): void => {
      const theirs = old.keptGroups();
      const mine = recentGroups(analysis.processor.session);
      if (mine.some(([hi, lo]) => theirs.some(([h, l]) => h === hi && l === lo))) handOff(true);
    };
    const done = download.consume((chunk) => {
      if (forward) return forward(chunk);
      const copy = Buffer.from(chunk);
      kept.push(copy);
      keptBytes += copy.length;
      if (settled) return; // handed off, the next capture has not started reading yet
      if (keptBytes > options.maxBufferBytes) return finish(null);
      const step = analysis.push(copy);
      if (step.error) return finish(null);
      check();
    });
    done.then(() => finish(null), () => finish(null));
    // The old connection may write the shared GOP after the new one sent it: look again now and then.
    const poll = setInterval(check, 250);
    const timeout = setTimeout(() => (recentGroups(analysis.processor.session).length > 0 ? handOff(false) : finish(null)), options.matchTimeoutMs);
  });
}
