// Progress on stderr: one line per phase, and a live seconds counter during measurement windows when stderr is a terminal.
const tty = process.stderr.isTTY === true;
let counterShown = false;

export function phase(line: string): void {
  if (counterShown) process.stderr.write('\n');
  counterShown = false;
  process.stderr.write(`bench: ${line}\n`);
}

/** Rewrites one status line in place (TTY only; a log file gets the phase lines alone). */
export function counter(text: string): void {
  if (!tty) return;
  process.stderr.write(`\r  ${text}\x1b[K`);
  counterShown = true;
}

export function endCounter(): void {
  if (counterShown) process.stderr.write('\n');
  counterShown = false;
}
