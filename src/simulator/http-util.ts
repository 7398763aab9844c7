// Small HTTP helpers for the simulator: JSON answers, API envelopes, and reading a JSON request body.
import type { IncomingMessage, ServerResponse } from 'node:http';

export function sendJson(res: ServerResponse, status: number, value: unknown, extraHeaders: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...extraHeaders });
  res.end(body);
}

export function sendText(res: ServerResponse, status: number, body: string, contentType = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** The service's JSON envelope; `legacy` adds the `msg` field the /room/v1 endpoints carry. */
export function envelope(code: number, message: string, data: unknown, legacy = false): Record<string, unknown> {
  return legacy ? { code, msg: message, message, data } : { code, message, ttl: 1, data };
}

export class BodyError extends Error {}

/** Reads and parses a JSON body (max 1 MiB); an empty body is `{}`. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > 1024 * 1024) throw new BodyError('Request body exceeds 1 MiB');
    chunks.push(c);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyError('Request body is not JSON');
  }
}

/** True once the client hung up (checked after an artificial delay before answering). */
export function clientGone(res: ServerResponse): boolean {
  return res.destroyed || !res.socket || res.socket.destroyed;
}
