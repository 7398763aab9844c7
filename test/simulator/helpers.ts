// Test helpers: an in-process simulator, control-API calls, ffprobe, polling and stream collection.
import { Simulator } from '../../src/simulator/simulator.js';
import type { SimRoomInit } from '../../src/simulator/room.js';
import type { StreamDownload } from '../../src/bilibili/stream-download.js';

export async function startSim(rooms: SimRoomInit[] = []): Promise<{ sim: Simulator; url: string; close: () => Promise<void> }> {
  const sim = new Simulator();
  const running = await sim.start();
  for (const r of rooms) sim.createRoom(r);
  return { sim, url: running.url, close: running.close };
}

export async function control(base: string, path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<{ status: number; json: any }> {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

/** The ffprobe binary (shared helper: the exec bit may be missing for non-owners). */
export { ffprobeBin as ffprobePath } from '../support/media-tools.js';

export async function waitFor(cond: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface Collected {
  data: Buffer;
  error: unknown;
}

/** Reads a download until it ends, fails, or `ms` passes (then stops it). */
export async function collect(download: StreamDownload, ms: number): Promise<Collected> {
  const chunks: Buffer[] = [];
  const timer = setTimeout(() => download.stop(), ms);
  let error: unknown = null;
  try {
    for await (const c of download) chunks.push(c);
  } catch (err) {
    error = err;
  } finally {
    clearTimeout(timer);
  }
  return { data: Buffer.concat(chunks), error };
}
