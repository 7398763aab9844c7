// Test helpers: an in-process simulator, control-API calls, ffprobe, polling and stream collection.
import { Simulator } from '../../src/simulator/simulator.js';
import type { SimRoomInit } from '../../src/simulator/room.js';
import type { StreamDownload } from '../../src/bilibili/stream-download.js';
import { DOCUMENTED_WBI_KEYS, signQuery } from '../../src/bilibili/wbi.js';

/** A guest buvid3 in the shape finger/spi hands out (test/fixtures/bili-real/api/bac_x_frontend_finger_spi_b3_b4.json). */
export const TEST_BUVID3 = 'D9656DA8-9BEF-F464-5B72-C4849AFD336379044infoc';

/**
 * A live API call as the web client makes it in 2026: WBI-signed (the simulator publishes DOCUMENTED_WBI_KEYS)
 * with a buvid3 cookie; `sign: false` or `buvid3: ''` make the call the simulator refuses.
 */
/** `cookie`: more cookies after the buvid3 (e.g. a login's `SESSDATA=…`). */
export function liveFetch(base: string, path: string, params: Record<string, string | number>, o: { sign?: boolean; buvid3?: string; cookie?: string } = {}): Promise<Response> {
  const query = o.sign === false ? Object.entries(params).map(([k, v]) => `${k}=${v}`).join('&') : signQuery(params, DOCUMENTED_WBI_KEYS);
  const buvid3 = o.buvid3 ?? TEST_BUVID3;
  const cookie = [buvid3 ? `buvid3=${buvid3}` : '', o.cookie ?? ''].filter(Boolean).join('; ');
  return fetch(`${base}${path}?${query}`, { headers: cookie ? { cookie } : {} });
}

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
