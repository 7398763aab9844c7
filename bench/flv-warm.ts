// Child of bench:flv: repairs one input several times in one process and prints each pass's CPU (JSON lines).
import { rmSync } from 'node:fs';
import { processFile } from '../src/flv/process-file.js';

/**
 * `liverec tool fix` pays V8's start-up and compilation once per process; later passes over the same input
 * show the engine's own steady cost. process.cpuUsage covers every thread (compiler and GC threads too).
 */
function main(): void {
  const [input, base, passesArg] = process.argv.slice(2);
  if (!input || !base) throw new Error('usage: flv-warm.js INPUT OUTPUT_BASE [PASSES]');
  const passes = Math.max(1, Number(passesArg ?? 3));
  for (let pass = 0; pass < passes; pass++) {
    rmSync(`${base}.fix_p001.flv`, { force: true });
    const c0 = process.cpuUsage();
    const report = processFile({ input, outputBase: base });
    const c = process.cpuUsage(c0);
    if (report.outputFiles.length !== 1) throw new Error(`pass ${pass}: ${report.outputFiles.length} output files`);
    process.stdout.write(`${JSON.stringify({ pass, userS: c.user / 1e6, sysS: c.system / 1e6, cpuS: (c.user + c.system) / 1e6 })}\n`);
  }
}

main();
