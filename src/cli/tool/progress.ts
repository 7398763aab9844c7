// A one-line progress bar for stderr (only drawn on a terminal): bytes done of total across all inputs.

const MB = 1024 * 1024;

export class ProgressBar {
  private lastDraw = 0;
  private drawn = false;
  private readonly done = new Map<number, number>();

  constructor(private readonly out: NodeJS.WriteStream, private readonly total: number, private readonly label: string) {}

  /** Records progress of job `id` (bytes done) and redraws at most ~10 times a second. */
  update(id: number, done: number): void {
    this.done.set(id, done);
    const now = Date.now();
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    this.draw();
  }

  /** Clears the line. */
  finish(): void {
    if (this.drawn) this.out.write('\r\x1b[2K');
    this.drawn = false;
  }

  private draw(): void {
    let done = 0;
    for (const v of this.done.values()) done += v;
    const ratio = this.total > 0 ? Math.min(1, done / this.total) : 0;
    const width = Math.max(10, Math.min(40, (this.out.columns ?? 80) - 40));
    const fill = Math.round(ratio * width);
    const bar = '#'.repeat(fill) + '-'.repeat(width - fill);
    const pct = `${Math.floor(ratio * 100)}%`.padStart(4);
    this.out.write(`\r\x1b[2K[${bar}] ${pct} ${(done / MB).toFixed(1)}/${(this.total / MB).toFixed(1)} MB ${this.label}`);
    this.drawn = true;
  }
}

/** A bar when `out` is a terminal, else null (no output at all). */
export function progressBarFor(out: NodeJS.WriteStream, total: number, label: string): ProgressBar | null {
  return out.isTTY ? new ProgressBar(out, total, label) : null;
}
