// API fuzzing: random and malformed requests (see fuzz-cases.ts) checked for no 5xx, JSON error bodies, and the
// documented schema wherever the document covers the answer. Background work (e.g. a running recording) can run
// alongside and be checked afterwards — see BackgroundWork and fuzzAlongside.
import { generateCase, mulberry32, type FuzzCase, type FuzzOptions } from './fuzz-cases.js';
import { sendRaw } from './raw-http.js';
import type { SchemaChecker } from './schema-check.js';

export type { FuzzCase, FuzzOptions } from './fuzz-cases.js';

export interface FuzzReport {
  sent: number;
  byStatus: Record<number, number>;
  /** 5xx answers, hangs and transport errors. */
  failures: string[];
  /** Answers that contradict the document or the JSON error convention. */
  violations: string[];
}

/** Work that runs while the fuzz runs, checked afterwards (the recorder engineer plugs a live recording in here). */
export interface BackgroundWork {
  name: string;
  start(): Promise<void>;
  /** Throws if the fuzz harmed the work. */
  assertUnharmed(): Promise<void>;
  stop(): Promise<void>;
}

function describeCase(c: FuzzCase): string {
  const body = c.body ? ` body(${c.body.length}${c.chunked ? ', chunked' : ''}): ${c.body.subarray(0, 120).toString()}` : '';
  return `${c.method} ${c.path.slice(0, 200)} ${JSON.stringify(c.headers).slice(0, 200)}${body}`;
}

/** Sends `requests` random cases with bounded concurrency and checks every answer. */
export async function runApiFuzz(url: string, checker: SchemaChecker, o: FuzzOptions): Promise<FuzzReport> {
  const rng = mulberry32(o.seed);
  const report: FuzzReport = { sent: 0, byStatus: {}, failures: [], violations: [] };
  const cases = Array.from({ length: o.requests }, () => generateCase(rng, o));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const c = cases[next++]!;
      let res: Awaited<ReturnType<typeof sendRaw>>;
      try {
        res = await sendRaw(url, c);
      } catch (err) {
        report.failures.push(`${describeCase(c)} → ${(err as Error).message}`);
        continue;
      }
      report.sent++;
      report.byStatus[res.status] = (report.byStatus[res.status] ?? 0) + 1;
      if (res.status >= 500) report.failures.push(`${describeCase(c)} → ${res.status} ${res.body.subarray(0, 300).toString()}`);
      const isApi = /^\/api(\/|\?|$)/i.test(c.path);
      const plainAnswer = res.status === 204 || res.status === 304 || res.status === 412 || c.method === 'HEAD' || res.body.length === 0;
      if (isApi && !plainAnswer) {
        if (res.contentType !== 'application/json; charset=utf-8') {
          report.violations.push(`${describeCase(c)} → ${res.status} with content-type ${res.contentType}`);
          continue;
        }
        let body: unknown;
        try {
          body = JSON.parse(res.body.toString());
        } catch {
          report.violations.push(`${describeCase(c)} → ${res.status} body is not JSON`);
          continue;
        }
        if (res.status >= 400 && (typeof (body as { code?: unknown }).code !== 'number' || typeof (body as { message?: unknown }).message !== 'string')) {
          report.violations.push(`${describeCase(c)} → ${res.status} error body without {code, message}`);
        }
        if (c.operation) {
          const schema = checker.responseSchema(c.operation.method, c.operation.template, res.status);
          // Routing answers (404 no such path, 405, 413, 415, 401) are not per-operation and not in the document.
          if (schema) {
            const errors = checker.check(schema, body);
            if (errors.length) report.violations.push(`${describeCase(c)} → ${res.status}: ${errors.slice(0, 3).join('; ')}`);
          }
        }
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency ?? 16 }, worker));
  return report;
}

/** Starts every background work, fuzzes, then checks each work was unharmed (and stops it). */
export async function fuzzAlongside(url: string, checker: SchemaChecker, o: FuzzOptions, background: BackgroundWork[]): Promise<FuzzReport> {
  for (const w of background) await w.start();
  try {
    const report = await runApiFuzz(url, checker, o);
    for (const w of background) await w.assertUnharmed();
    return report;
  } finally {
    for (const w of background) await w.stop();
  }
}
