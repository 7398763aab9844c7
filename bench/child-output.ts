// Keeps the tail of a child's output (for error messages) and lets callers wait for a line that matches.
import type { Readable } from 'node:stream';

export class OutputTail {
  private text = '';

  constructor(stream: Readable | null, private readonly keep = 4000) {
    stream?.setEncoding('utf8');
    stream?.on('data', (d: string) => {
      this.text = (this.text + d).slice(-this.keep);
    });
  }

  get tail(): string {
    return this.text.trim();
  }
}

/** Resolves with the first match of `pattern` in `stream`, or rejects when the child exits or `timeoutMs` passes. */
export function waitForLine(stream: Readable, pattern: RegExp, onExit: Promise<unknown>, timeoutMs: number, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => finish(new Error(`${what}: no "${pattern.source}" on stdout within ${timeoutMs} ms`)), timeoutMs);
    const onData = (d: Buffer | string): void => {
      seen += d.toString();
      const m = pattern.exec(seen);
      if (m) finish(null, m);
    };
    const finish = (err: Error | null, m?: RegExpExecArray): void => {
      clearTimeout(timer);
      stream.off('data', onData);
      if (err) reject(err);
      else resolve(m!);
    };
    stream.on('data', onData);
    void onExit.then(() => finish(new Error(`${what} exited before it was ready`)));
  });
}
