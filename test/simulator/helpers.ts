// Test helpers: an in-process simulator, control-API calls, ffprobe, polling and stream collection.
import { accessSync, chmodSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
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

/** The ffprobe binary, made executable if the package shipped it without the x bit. */
export function ffprobePath(): string {
  const path = (createRequire(import.meta.url)('@ffprobe-installer/ffprobe') as { path: string }).path;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    chmodSync(path, 0o755);
  }
  return path;
}

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
