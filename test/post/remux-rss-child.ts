// Child of remux-bounds.test.ts: one remux in a fresh process, then its outcome and the process's peak RSS as JSON.
import { remuxToMp4 } from '../../src/post/remux/remux.js';

const [input, output] = process.argv.slice(2);
let outcome: Record<string, unknown>;
try {
  const r = remuxToMp4(input!, output!);
  outcome = { ok: true, skipped: r.ledger.skipped, skippedBytes: r.ledger.skippedBytes, samples: r.tracks.map((t) => t.samples) };
} catch (err) {
  outcome = { ok: false, error: (err as Error).message };
}
process.stdout.write(`${JSON.stringify({ ...outcome, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
