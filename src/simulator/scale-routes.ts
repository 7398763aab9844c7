// Control routes for scale tests: many rooms in one call, the risk-control threshold, batch endpoint faults.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { BodyError, readJson, sendJson } from './http-util.js';
import { BATCH_FAULT_KINDS, type BatchFaults } from './batch-faults.js';
import type { RiskCounter } from './risk-counter.js';
import type { SimRoom, SimRoomInit } from './room.js';

interface ScaleSim {
  risk: RiskCounter;
  batchFaults: BatchFaults;
  createRoom(init: SimRoomInit): SimRoom;
}

const Bulk = z.object({ count: z.number().int().min(1).max(100_000), firstRoomId: z.number().int().min(1).optional(), live: z.boolean().optional() }).strict();
const Risk = z.object({ perMinute: z.number().int().min(0) }).strict();
const Faults = z.object({ count: z.number().int().min(-1), kind: z.enum(BATCH_FAULT_KINDS).optional() }).strict();

/**
 * POST /_sim/rooms/bulk     {count, firstRoomId?, live?}  → {created, firstRoomId}  rooms firstRoomId…+count-1 (cheap: no clips, no sockets)
 * POST /_sim/risk           {perMinute}                   risk control: calls per minute per IP above which calls get 412 (0 = off)
 * POST /_sim/batch-faults   {count, kind?}                the next `count` calls of the batch endpoints (get_status_info_by_uids and
 *                                                         getRoomBaseInfo) fail (-1 = all until count 0); kind http-500 [default],
 *                                                         http-404 (endpoint gone), code-error (-400 in an HTTP 200), risk-412
 */
export function isScalePath(path: string, method: string): boolean {
  return method === 'POST' && (path === '/_sim/rooms/bulk' || path === '/_sim/risk' || path === '/_sim/batch-faults');
}

export async function handleScale(sim: ScaleSim, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  let body: unknown;
  try {
    body = await readJson(req);
  } catch (err) {
    if (err instanceof BodyError) return sendJson(res, 400, { error: err.message });
    throw err;
  }
  const parse = <T>(schema: z.ZodType<T>): T | null => {
    const r = schema.safeParse(body);
    if (r.success) return r.data;
    sendJson(res, 400, { error: r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') });
    return null;
  };
  if (url.pathname === '/_sim/risk') {
    const b = parse(Risk);
    if (!b) return;
    sim.risk.perMinute = b.perMinute;
    return sendJson(res, 200, { perMinute: b.perMinute });
  }
  if (url.pathname === '/_sim/batch-faults') {
    const b = parse(Faults);
    if (!b) return;
    sim.batchFaults.remaining = b.count;
    sim.batchFaults.kind = b.kind ?? 'http-500';
    return sendJson(res, 200, sim.batchFaults);
  }
  const b = parse(Bulk);
  if (!b) return;
  const first = b.firstRoomId ?? 1_000_000;
  try {
    for (let i = 0; i < b.count; i++) sim.createRoom({ roomId: first + i, live: b.live ?? false });
  } catch (err) {
    return sendJson(res, 409, { error: (err as Error).message });
  }
  sendJson(res, 201, { created: b.count, firstRoomId: first });
}
