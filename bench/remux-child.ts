// One remux in its own process (bench/remux.ts): prints its CPU seconds and peak RSS as JSON.
import { remuxToMp4 } from '../src/post/remux/remux.js';

const [input, output] = process.argv.slice(2);
const report = remuxToMp4(input!, output!);
const u = process.resourceUsage();
process.stdout.write(`${JSON.stringify({ cpuS: (u.userCPUTime + u.systemCPUTime) / 1e6, maxRssKiB: u.maxRSS, tracks: report.tracks })}\n`);
