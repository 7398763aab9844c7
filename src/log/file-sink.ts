// brec's file log: CLEF JSON lines in <dir>/bilirec<yyyyMMdd>.txt, a new file each day and after 1 GiB (…_001.txt).
import { closeSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { toClef } from './ring.js';

const SIZE_LIMIT = 1024 * 1024 * 1024;

const day = (d: Date): string =>
  `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;

/** Serilog's rolling name: the date goes before the extension, a sequence number after a size roll. */
export function rollingName(basePath: string, date: Date, sequence = 0): string {
  const ext = extname(basePath);
  const stem = basename(basePath, ext);
  return join(dirname(basePath), `${stem}${day(date)}${sequence ? `_${String(sequence).padStart(3, '0')}` : ''}${ext}`);
}

/** A pino destination. Writes are synchronous: a line is on disk before the process can exit or crash. */
export class ClefFileSink {
  private fd: number | null = null;
  private current = '';
  private key = '';
  private sequence = 0;
  private size = 0;
  private failed = false;
  /** Lines kept in memory until release(): a start that fails must not leave logs/ behind. */
  private held: string[] | null;

  /**
   * @param basePath e.g. `<workdir>/logs/bilirec.txt` (brec's name; BILILIVERECORDER_LOG_FILE_PATH overrides it).
   * @param hold keep lines in memory (the first 10,000) until release() instead of writing them.
   */
  constructor(readonly basePath: string, hold = false) {
    this.held = hold ? [] : null;
  }

  /** Writes the held lines and every later one to the file (the service has started). */
  release(): void {
    const lines = this.held;
    this.held = null;
    for (const line of lines ?? []) this.write(line);
  }

  /** The file written last (for tests and the start-up line). */
  get path(): string {
    return this.current || rollingName(this.basePath, new Date());
  }

  write(line: string): void {
    if (this.failed) return;
    if (this.held) {
      if (this.held.length < 10_000) this.held.push(line);
      return;
    }
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const out = `${JSON.stringify(toClef(record))}\n`;
    try {
      this.open(new Date(), Buffer.byteLength(out));
      this.size += writeSync(this.fd!, out);
    } catch (err) {
      // A log file that cannot be written must not take the recorder down; say it once on stderr.
      this.failed = true;
      process.stderr.write(`liverec: log file ${this.current || this.basePath} cannot be written (${(err as Error).message}); file logging is off\n`);
    }
  }

  private open(now: Date, nextBytes: number): void {
    const key = day(now);
    if (this.fd !== null && key === this.key && this.size + nextBytes <= SIZE_LIMIT) return;
    if (key !== this.key) this.sequence = 0;
    else if (this.fd !== null) this.sequence++;
    this.close();
    this.key = key;
    mkdirSync(dirname(this.basePath), { recursive: true });
    for (;;) {
      this.current = rollingName(this.basePath, now, this.sequence);
      let existing = 0;
      try { existing = statSync(this.current).size; } catch { /* new file */ }
      if (existing + nextBytes <= SIZE_LIMIT || existing === 0) {
        this.size = existing;
        break;
      }
      this.sequence++;
    }
    this.fd = openSync(this.current, 'a');
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
