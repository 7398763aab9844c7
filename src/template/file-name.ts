// brec's file-name generator as a pure function: render the template, sanitise, confine, fall back to the default.
import { dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { DEFAULT_FILE_NAME_TEMPLATE } from '../config/fields.js';
import { fitPathBytes } from './fit-name-bytes.js';
import { renderTemplate } from './liquid-engine.js';
import { sanitizeRenderedPath, sanitizeValue } from './sanitize.js';

export const FileNameStatus = { Success: 0, TemplateError: 1, OutOfRange: 2, FileConflict: 3 } as const;
export type FileNameStatus = (typeof FileNameStatus)[keyof typeof FileNameStatus];

/** The template variables (brec's FileNameTemplateContext). `json` is the raw getInfoByRoom `data` object. */
export interface FileNameContext {
  roomId: number;
  shortId: number;
  name: string;
  uid: number;
  title: string;
  areaParent: string;
  areaChild: string;
  /** 1-based, +1 per file within a session. */
  partIndex: number;
  /** −1 when a user script supplied the stream URL. */
  qn: number;
  json: unknown;
}

export interface FileNameOptions {
  /** Liquid template; null/blank = brec's default template. */
  template: string | null | undefined;
  /** Absolute work directory; the result must lie strictly inside it. */
  workDir: string;
  /** Recording pre-sanitises name/title/areas (slashes included); generateFileName over the API does not. */
  sanitizeContext: boolean;
  /** The instant "now" stands for (one per render). */
  now?: Date;
  /** Conflict check; without it no file system is consulted and FileConflict never happens. */
  exists?: (fullPath: string) => boolean;
  random?: () => number;
}

export interface FileNameResult {
  status: FileNameStatus;
  /** Set for every status but Success. */
  errorMessage: string | null;
  /** Path relative to the work directory, `/`-separated, ending in `.flv`. */
  relativePath: string;
  fullPath: string;
}

function scopeOf(ctx: FileNameContext, sanitize: boolean): Record<string, unknown> {
  const s = (v: string): string => (sanitize ? sanitizeValue(v) : v);
  return {
    roomId: ctx.roomId, shortId: ctx.shortId, name: s(ctx.name), uid: ctx.uid, title: s(ctx.title),
    areaParent: s(ctx.areaParent), areaChild: s(ctx.areaChild), partIndex: ctx.partIndex, qn: ctx.qn, json: ctx.json ?? null,
  };
}

/** Bytes kept free in a cut file name for recording-path's `-N` suffix (up to `-10000`). */
export const SUFFIX_RESERVE = 6;

function isStrictlyInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function attempt(template: string, scope: Record<string, unknown>, opts: FileNameOptions, now: number): FileNameResult {
  const workDir = resolve(opts.workDir);
  let rendered: string;
  try {
    rendered = renderTemplate(template, scope, now, opts.random);
  } catch (err) {
    return { status: FileNameStatus.TemplateError, errorMessage: `template error: ${(err as Error).message}`, relativePath: '', fullPath: '' };
  }
  let relativePath = sanitizeRenderedPath(rendered);
  let fullPath = resolve(workDir, relativePath);
  // brec checks the directory of the file: a file directly in the work directory is fine, the directory itself is not.
  if (!isStrictlyInside(workDir, dirname(fullPath)) || fullPath === workDir) {
    return { status: FileNameStatus.OutOfRange, errorMessage: 'the output file must be inside the work directory', relativePath, fullPath };
  }
  if (extname(fullPath).toLowerCase() !== '.flv') fullPath += '.flv';
  // Reported normalised (no `//` or `./`), so it names exactly the file that fullPath names. Each component is
  // cut to the file system's 255-byte limit (a long CJK title would otherwise fail with ENAMETOOLONG).
  relativePath = fitPathBytes(relative(workDir, fullPath).split(sep).join('/'), SUFFIX_RESERVE);
  fullPath = resolve(workDir, relativePath);
  if (opts.exists?.(fullPath)) {
    return { status: FileNameStatus.FileConflict, errorMessage: `file already exists: ${relativePath}`, relativePath, fullPath };
  }
  return { status: FileNameStatus.Success, errorMessage: null, relativePath, fullPath };
}

/**
 * Renders the file name of a recording. On any error the default template's path is returned instead, with the
 * error's status and message (brec's behaviour); the fallback itself is not checked for conflicts here.
 */
export function generateFileName(ctx: FileNameContext, opts: FileNameOptions): FileNameResult {
  const now = (opts.now ?? new Date()).getTime();
  const scope = scopeOf(ctx, opts.sanitizeContext);
  const template = opts.template && opts.template.trim() !== '' ? opts.template : DEFAULT_FILE_NAME_TEMPLATE;
  const result = attempt(template, scope, opts, now);
  if (result.status === FileNameStatus.Success) return result;
  const fallback = attempt(DEFAULT_FILE_NAME_TEMPLATE, scope, { ...opts, exists: undefined }, now);
  return { status: result.status, errorMessage: result.errorMessage, relativePath: fallback.relativePath, fullPath: fallback.fullPath };
}
