// A minimal SSE client on node:http for tests: parses frames, remembers them, and can wait for one.
import { request, type ClientRequest } from 'node:http';

export interface SseFrame { id: number | null; event: string; data: string }

export interface SseOptions {
  /** Called with each frame as it is parsed, in stream order. */
  onFrame?: (frame: SseFrame) => void;
  /** Keep every frame in `frames` (default true; a long-running reader that only listens turns it off). */
  keep?: boolean;
}

export class SseClient {
  readonly frames: SseFrame[] = [];
  status = 0;
  /** The response is open (false once the server or the network ended it). */
  connected = false;
  private req: ClientRequest | null = null;
  private buf = '';
  private waiters = new Set<() => void>();

  private constructor(private readonly options: SseOptions) {}

  static connect(url: string, headers: Record<string, string> = {}, options: SseOptions = {}): Promise<SseClient> {
    const c = new SseClient(options);
    return new Promise((resolve, reject) => {
      c.req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        c.status = res.statusCode ?? 0;
        c.connected = c.status === 200;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => c.feed(chunk));
        res.on('error', () => (c.connected = false));
        res.on('close', () => (c.connected = false));
        resolve(c);
      });
      c.req.on('error', reject);
      c.req.end();
    });
  }

  private feed(chunk: string): void {
    this.buf += chunk;
    let end: number;
    while ((end = this.buf.indexOf('\n\n')) >= 0) {
      const block = this.buf.slice(0, end);
      this.buf = this.buf.slice(end + 2);
      const frame: SseFrame = { id: null, event: 'message', data: '' };
      let hasData = false;
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) frame.id = Number(line.slice(4));
        else if (line.startsWith('event: ')) frame.event = line.slice(7);
        else if (line.startsWith('data: ')) (frame.data += line.slice(6)), (hasData = true);
      }
      if (!hasData) continue;
      if (this.options.keep !== false) this.frames.push(frame);
      this.options.onFrame?.(frame);
    }
    for (const w of this.waiters) w();
  }

  of(event: string): SseFrame[] {
    return this.frames.filter((f) => f.event === event);
  }

  waitFor(what: string, pred: (f: SseFrame) => boolean, timeoutMs = 30_000): Promise<SseFrame> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const hit = this.frames.find(pred);
        if (!hit) return false;
        done();
        resolve(hit);
        return true;
      };
      const timer = setTimeout(() => (done(), reject(new Error(`no SSE frame: ${what}`))), timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(listener);
      };
      const listener = (): void => void check();
      this.waiters.add(listener);
      check();
    });
  }

  close(): void {
    this.req?.destroy();
    this.connected = false;
  }
}
