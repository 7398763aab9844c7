// One remux job's work in its own process (bench/remux.ts): the remux, then the verify step the job runs before a
// source may be deleted; prints the CPU seconds of each (Node's start-up apart), the process's, and its peak RSS.
import { crossCheck } from '../src/post/remux/cross-check.js';
import { readMp4Summary } from '../src/post/remux/mp4-summary.js';
import { remuxToMp4 } from '../src/post/remux/remux.js';
import { verifyRemux, verifySamples } from '../src/post/remux/verify.js';

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const [input, output] = process.argv.slice(2);
const t0 = cpu();
const report = remuxToMp4(input!, output!);
const t1 = cpu();
const written = readMp4Summary(output!);
const problem = verifyRemux(report, written) ?? verifySamples(report, written!, output!);
if (problem) throw new Error(problem);
// What a job with mp4-delete-source adds: the independent reader's walk of the source (its own figure).
const t2a = cpu();
const disagreement = crossCheck(input!, report.format, written);
if (disagreement) throw new Error(disagreement);
const crossS = cpu() - t2a;
const t2 = cpu() - crossS;
const u = process.resourceUsage();
process.stdout.write(`${JSON.stringify({
  remuxS: t1 - t0, verifyS: t2 - t1, crossCheckS: crossS, skippedBytes: report.ledger.skippedBytes, cpuS: (u.userCPUTime + u.systemCPUTime) / 1e6, maxRssKiB: u.maxRSS, tracks: report.tracks,
})}\n`);
