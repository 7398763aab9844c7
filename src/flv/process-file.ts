// Repair or analyse one input (FLV file/stream or brec XML tag list) into output files: the `tool` code path.
import { closeSync, fstatSync, openSync, readSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { HevcOutputForm } from './codecs/video-format.js';
import { FlvError } from './errors.js';
import { fastPathAvailable, readFlvFast } from './fast/fast-reader.js';
import { COMMENT_TYPES, ISSUE_TYPES, type IssueType } from './pipeline/actions.js';
import type { FlvStats } from './rules/tool-stats.js';
import { TagArena } from './tag-arena.js';
import { FlvStream, type StreamStep } from './stream.js';
import { FlvContextWriter } from './writer/context-writer.js';
import { FlvFileOutput } from './writer/file-output.js';
import { FlvListOutput } from './writer/list-output.js';
import type { FlvOutput } from './writer/output.js';
import { isXmlPath, readXmlFlvFile } from './xml/xml-reader.js';
import { flvToXml } from './xml/xml-writer.js';

/** brec-like tool status strings. */
export type ToolStatus = 'OK' | 'NotFlvFile' | 'UnknownFlvTagType' | 'UnsupportedCodec' | 'InputIOError' | 'OutputIOError' | 'Error';

export interface ProcessFileOptions {
  /** `.flv`, or a brec XML tag list (`.xml`, `.xml.gz`, `.gz`). */
  input: string;
  /** Write repaired files as `<base>.fix_pNNN.flv` (`.brec.xml` for XML input); omit to only analyse. */
  outputBase?: string | null;
  splitOnScriptTag?: boolean;
  /** Called after each chunk read (FLV input). */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
  /** `'wx'` refuses to replace existing output files. Default `'w'`. */
  openFlags?: 'w' | 'wx';
  /** HEVC output: Enhanced FLV (`hvc1`, default) or codec id 12 as in the input (`--keep-codec12`). */
  hevcForm?: HevcOutputForm;
  /**
   * Write GOPs that need no repair straight from the read buffers (src/flv/fast; default true). Same output.
   * `'javascript'`: its JavaScript collecting loop everywhere, not the module's (for tests that compare the two).
   */
  fastPath?: boolean | 'javascript';
}

/** The result of one input; `status` is OK only when the whole input was read and written cleanly. */
export interface ProcessFileReport {
  status: ToolStatus;
  input: string;
  errorCode?: string;
  errorMessage?: string;
  outputFileCount: number;
  /** Tags per output file (script + headers + data + end). */
  tagCounts: number[];
  outputFiles: string[];
  /** Required comments per type. */
  issueCounts: Record<IssueType, number>;
  /** Informational comments per type (OnMetaData, Logging…). */
  infoCounts: Record<string, number>;
  /** The first required comments, as `(Type,A): text`. */
  issues: string[];
  needFix: boolean;
  unrepairable: boolean;
  /** The input carries ffmpeg's encoder tag and an End tag. */
  ffmpegDetected: boolean;
  video: FlvStats;
  audio: FlvStats;
  inputBytes: number;
  /** Bytes of a cut trailing tag that were dropped. */
  truncatedBytes: number;
  /** Data groups (GOPs) that needed no repair and were written straight from the read buffers (src/flv/fast). */
  fastGroups: number;
}

/** `<base>` without a trailing `.flv`/`.xml`/`.gz`, like brec's Path.ChangeExtension for the usual names. */
export function outputName(base: string, index: number, xml: boolean): string {
  const stem = base.replace(/\.(flv|xml|gz)$/i, '');
  return `${stem}.fix_p${String(index).padStart(3, '0')}.${xml ? 'brec.xml' : 'flv'}`;
}

export function statusOf(err: unknown): ToolStatus {
  const code = err instanceof FlvError || (err && typeof err === 'object' && 'code' in err) ? String((err as { code: unknown }).code) : '';
  switch (code) {
    case 'NOT_FLV': case 'UNSUPPORTED_FLV_HEADER': return 'NotFlvFile';
    case 'UNKNOWN_TAG_TYPE': return 'UnknownFlvTagType';
    case 'UNSUPPORTED_CODEC': return 'UnsupportedCodec';
    case 'OUTPUT_IO': case 'WRITER_FAILED': return 'OutputIOError';
    case 'INPUT_IO': case 'XML_FORMAT': case 'ENOENT': case 'EACCES': case 'EISDIR': case 'EIO': return 'InputIOError';
    default: return 'Error';
  }
}

/**
 * Reads of at most 256 KiB keep the set of live tag objects small when V8 scavenges, so its young generation
 * does not keep growing on long inputs. They go back to back into the thread's arena slabs (256 KiB, in the
 * hash module's memory, so tags are hashed where they lie), reused once no held tag views them: no copy for
 * a tag that spans two reads of one slab, and memory bounded by the open group, however long it is.
 */
const CHUNK = 1 << 18;
const MIN_READ = 1 << 16;

/** Shared driver: collects comments and outcomes of a stream run into a report. */
class ToolRun {
  readonly stream: FlvStream;
  readonly writer: FlvContextWriter;
  private readonly required = new Map<string, number>();
  private readonly info = new Map<string, number>();
  private readonly issues: string[] = [];
  error: unknown = null;
  fastGroups = 0;
  /** Tags assembled from reads in two slabs (and other copies); the reads themselves go to `reads`. */
  readonly copies = new TagArena();
  readonly reads = new TagArena();

  constructor(readonly opts: ProcessFileOptions, readonly xml: boolean, readonly output: FlvOutput, readonly outputFiles: string[]) {
    this.writer = new FlvContextWriter(output, { allowMissingHeader: true });
    this.stream = new FlvStream({ preset: 'tool', splitOnScriptTag: opts.splitOnScriptTag ?? false, writer: this.writer, arena: this.copies });
  }

  take(step: StreamStep): boolean {
    for (const g of step.groups) {
      for (const c of g.comments) {
        const m = c.required ? this.required : this.info;
        m.set(c.type, (m.get(c.type) ?? 0) + 1);
        if (c.required && this.issues.length < 50) this.issues.push(`(${c.type},A): ${c.text}`);
      }
    }
    if (step.error) this.error ??= step.error;
    return !step.error;
  }

  report(inputBytes: number): ProcessFileReport {
    const tagCounts = [...this.output.tagCounts];
    const issueCounts = Object.fromEntries(ISSUE_TYPES.map((t) => [t, this.required.get(t) ?? 0])) as Record<IssueType, number>;
    const infoCounts = Object.fromEntries(COMMENT_TYPES.filter((t) => this.info.has(t)).map((t) => [t, this.info.get(t)!]));
    const stats = this.stream.processor.toolStats!.result();
    const ffmpeg = this.stream.processor.ffmpeg!;
    const truncatedBytes = this.stream.parser.anomalies.truncatedBytes;
    let status: ToolStatus = 'OK';
    let errorCode: string | undefined;
    let errorMessage: string | undefined;
    if (this.error) {
      status = statusOf(this.error);
      errorCode = String((this.error as { code?: unknown }).code ?? 'UNKNOWN');
      errorMessage = (this.error as Error).message ?? String(this.error);
      if (errorCode === 'TRUNCATED' && inputBytes === 0) status = 'NotFlvFile';
    } else if (truncatedBytes > 0) {
      status = 'Error';
      errorCode = 'TRUNCATED';
      errorMessage = `Input ends inside a tag: ${truncatedBytes} bytes of an incomplete tag were dropped; everything before it was kept.`;
    }
    const required = [...this.required.values()].reduce((a, b) => a + b, 0);
    return {
      status, input: this.opts.input, ...(errorCode ? { errorCode, errorMessage } : {}),
      outputFileCount: tagCounts.length, tagCounts, outputFiles: this.outputFiles, issueCounts, infoCounts, issues: this.issues,
      needFix: tagCounts.length !== 1 || required > 0, unrepairable: issueCounts.Unrepairable > 0,
      ffmpegDetected: ffmpeg.endTagDetected && ffmpeg.lavfEncoderDetected,
      video: stats.video, audio: stats.audio, inputBytes, truncatedBytes, fastGroups: this.fastGroups,
    };
  }
}

function makeOutput(opts: ProcessFileOptions, xml: boolean, outputFiles: string[]): FlvOutput {
  if (!opts.outputBase || xml) return new FlvListOutput(Boolean(opts.outputBase));
  const base = opts.outputBase;
  return new FlvFileOutput({
    nextPath: ({ index }) => outputName(base, index, false),
    openFlags: opts.openFlags ?? 'w',
    offline: true,
    hevcForm: opts.hevcForm ?? 'enhanced',
    onFileOpened: ({ path }) => outputFiles.push(path),
  });
}

/**
 * Runs the repair pipeline (brec's ToolBox chain) over one input file and, with `outputBase`, writes the
 * repaired files. Never throws for bad input: problems are reported through `status`. FLV input is
 * streamed through a small pool of reused read buffers, so memory does not grow with the file.
 */
export function processFile(opts: ProcessFileOptions): ProcessFileReport {
  const xml = isXmlPath(opts.input);
  const outputFiles: string[] = [];
  const output = makeOutput(opts, xml, outputFiles);
  const run = new ToolRun(opts, xml, output, outputFiles);
  let inputBytes = 0;
  try {
    if (xml) {
      let file;
      try {
        file = readXmlFlvFile(opts.input);
      } catch (err) {
        run.error = err;
        return run.report(0);
      }
      run.take(run.stream.pushTags(file.tags, true));
    } else {
      inputBytes = readFlv(opts, run);
    }
  } finally {
    try {
      run.writer.close();
    } catch (err) {
      run.error ??= err;
    }
    // Everything read was written (or dropped): the slabs go back to the thread's pool for the next input.
    run.reads.dispose();
    run.copies.dispose();
  }
  if (xml && opts.outputBase && output instanceof FlvListOutput && !run.error) writeXmlOutputs(opts.outputBase, output, run);
  return run.report(inputBytes);
}

function readFlv(opts: ProcessFileOptions, run: ToolRun): number {
  let fd: number;
  let total: number;
  try {
    fd = openSync(opts.input, 'r');
    total = fstatSync(fd).size;
  } catch (err) {
    run.error = err;
    return 0;
  }
  let done = 0;
  try {
    if (opts.fastPath !== false && fastPathAvailable(run)) {
      const r = readFlvFast(fd, opts.input, run, (n) => opts.onProgress?.(n, total), opts.fastPath !== 'javascript');
      run.fastGroups = r.fastGroups;
      if (r.whole) return r.done;
      done = r.done;
    }
    for (;;) {
      const region = run.reads.tail(MIN_READ);
      let n: number;
      try {
        n = readSync(fd, region, 0, Math.min(CHUNK, region.length), null);
      } catch (err) {
        run.error = new FlvError('INPUT_IO', `Cannot read ${opts.input}: ${(err as Error).message}`, { cause: err });
        run.take(run.stream.end());
        break;
      }
      if (n === 0) {
        run.take(run.stream.end());
        break;
      }
      run.reads.commit(n);
      done += n;
      if (!run.take(run.stream.push(region.subarray(0, n)))) break;
      run.reads.releaseBefore(run.stream.oldestLive(run.reads));
      run.stream.release();
      opts.onProgress?.(done, total);
    }
  } finally {
    closeSync(fd);
  }
  return done;
}

function writeXmlOutputs(base: string, output: FlvListOutput, run: ToolRun): void {
  output.files.forEach((tags, i) => {
    const path = outputName(base, i + 1, true);
    try {
      const text = flvToXml(tags);
      writeFileSync(path, /\.gz$/i.test(path) ? gzipSync(text) : text, { flag: run.opts.openFlags ?? 'w' });
      run.outputFiles.push(path);
    } catch (err) {
      run.error ??= new FlvError('OUTPUT_IO', `Cannot write ${path}: ${(err as Error).message}`, { cause: err });
    }
  });
}
