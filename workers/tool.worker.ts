// piscina task entry for `liverec tool` jobs: one input file per task, progress over a MessagePort.
import type { MessagePort } from 'node:worker_threads';
import { exportFlvToXml, type ExportReport } from '../src/flv/export-xml.js';
import { processFile, type ProcessFileReport } from '../src/flv/process-file.js';

/** A tool job. Paths only: the worker streams the file itself, nothing big crosses the thread boundary. */
export interface ToolTask {
  command: 'analyze' | 'fix' | 'export';
  input: string;
  /** fix: output base; export: output path. */
  output?: string;
  splitOnScriptTag?: boolean;
  /** `tool fix --keep-codec12`: HEVC stays codec id 12 instead of Enhanced FLV. */
  keepCodec12?: boolean;
  /** Receives `{ done, total }` byte counts, at most every 100 ms. */
  progressPort?: MessagePort;
}

export type ToolTaskResult = ProcessFileReport | ExportReport;

/** Runs one job. In-thread callers may pass `progress` instead of a port. */
export default function runToolTask(task: ToolTask, progress?: (done: number, total: number) => void): ToolTaskResult {
  let last = 0;
  const report = progress ?? ((done: number, total: number) => task.progressPort?.postMessage({ done, total }));
  const onProgress = task.progressPort || progress
    ? (done: number, total: number): void => {
        const now = Date.now();
        if (now - last < 100 && done < total) return;
        last = now;
        report(done, total);
      }
    : undefined;
  try {
    if (task.command === 'export') return exportFlvToXml(task.input, task.output ?? '', onProgress);
    return processFile({
      input: task.input,
      outputBase: task.command === 'fix' ? task.output ?? null : null,
      splitOnScriptTag: task.splitOnScriptTag ?? false,
      hevcForm: task.keepCodec12 ? 'codec12' : 'enhanced',
      onProgress,
    });
  } finally {
    task.progressPort?.close();
  }
}
