// The session's last play-info answer, so that gap filling finds the room's HLS without another call on the API budget.
import type { BilibiliApiClient } from '../../bilibili/api-client.js';
import type { PlayInfo } from '../../bilibili/api-models.js';
import { codecEntries, streamUrlOf, type StreamUrl } from '../../bilibili/stream-url.js';

/** Older answers are not reused: their URLs may have expired and the offer may have changed (a fresh call is made). */
const FRESH_MS = 60_000;

export class PlayInfoMemo {
  private last: { play: PlayInfo; at: number } | null = null;

  /** `api` with getPlayInfo remembered; every other member is the client's own (bound to it, so its counters stay one). */
  client(api: BilibiliApiClient): BilibiliApiClient {
    const getPlayInfo = async (roomId: number, qn: number, signal?: AbortSignal): Promise<PlayInfo> => {
      const play = await api.getPlayInfo(roomId, qn, signal);
      this.last = { play, at: Date.now() };
      return play;
    };
    return new Proxy(api, {
      get(target, prop) {
        if (prop === 'getPlayInfo') return getPlayInfo;
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }

  /** The stream's start (unix s) as the last answer gave it (`live_time`); 0 when unknown. */
  liveTime(): number {
    return this.last && this.last.play.liveTime > 0 ? this.last.play.liveTime : 0;
  }

  /**
   * The fMP4 HLS of the stream being recorded (same codec, same quality served) on every offered host, from an answer
   * of the last minute; null when there is none or it does not offer that stream.
   */
  hlsUrls(recording: Pick<StreamUrl, 'codec' | 'qn' | 'currentQn'>): string[] | null {
    if (!this.last || Date.now() - this.last.at > FRESH_MS) return null;
    try {
      const entry = codecEntries(this.last.play, 'fmp4').get(recording.codec);
      return entry && entry.currentQn === recording.currentQn ? streamUrlOf(entry, recording.codec, recording.qn, 'fmp4').urls : null;
    } catch {
      return null; // no fMP4 in the answer (NO_STREAM) or none at all: the fill asks the API as before
    }
  }
}
