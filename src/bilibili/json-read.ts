// Tiny typed readers for API JSON: a missing field or a wrong type becomes API_BAD_RESPONSE naming the path.
import { BiliErrorCode, BilibiliError } from './errors.js';

// Hand-written instead of zod: these run in every room worker, and importing zod costs a worker about
// +6.7 MB RSS (measured on Node 20); the API shapes we read are a few dozen fields.

export type Json = unknown;

function bad(path: string, expected: string, got: unknown): BilibiliError {
  const kind = got === null ? 'null' : Array.isArray(got) ? 'array' : typeof got;
  return new BilibiliError(BiliErrorCode.ApiBadResponse, `API answer: ${path} should be ${expected}, got ${kind}`);
}

export function obj(v: Json, path: string): Record<string, Json> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw bad(path, 'an object', v);
  return v as Record<string, Json>;
}

export function arr(v: Json, path: string): Json[] {
  if (!Array.isArray(v)) throw bad(path, 'an array', v);
  return v;
}

/** A number; ids that arrive as numeric strings are accepted (the service changed some ids to strings). */
export function num(v: Json, path: string): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  throw bad(path, 'a number', v);
}

export function str(v: Json, path: string): string {
  if (typeof v === 'string') return v;
  throw bad(path, 'a string', v);
}

export function bool(v: Json, path: string): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 0 || v === 1) return v === 1;
  throw bad(path, 'a boolean', v);
}

/** Optional variants: undefined/null give the fallback, any other wrong type is still an error. */
export function optNum(v: Json, path: string, fallback: number): number {
  return v === undefined || v === null ? fallback : num(v, path);
}

export function optStr(v: Json, path: string, fallback: string): string {
  return v === undefined || v === null ? fallback : str(v, path);
}

export function optBool(v: Json, path: string, fallback: boolean): boolean {
  return v === undefined || v === null ? fallback : bool(v, path);
}
