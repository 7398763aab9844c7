// Armed failures of the batch endpoints (get_status_info_by_uids, getRoomBaseInfo): they name no room, so the per-room
// faults cannot reach them. No capture shows either failing; these are test controls, not rules of the service.
export const BATCH_FAULT_KINDS = ['http-500', 'http-404', 'code-error', 'risk-412'] as const;
export type BatchFaultKind = (typeof BATCH_FAULT_KINDS)[number];

export interface BatchFaults {
  /** Calls left to fail (-1 = every call until cleared). */
  remaining: number;
  kind: BatchFaultKind;
}

/** The failure answer of the next batch call, or null when none is armed. */
export function takeBatchFault(sim: { batchFaults: BatchFaults }): { status: number; body: unknown } | null {
  const f = sim.batchFaults;
  if (f.remaining === 0) return null;
  if (f.remaining > 0) f.remaining--;
  switch (f.kind) {
    case 'http-500':
      return { status: 500, body: { error: 'Internal Server Error' } };
    case 'http-404':
      // An endpoint the service dropped or renamed: the gateway's 404 (the same answer as any unknown path here).
      return { status: 404, body: { code: -404, message: '啥都木有', ttl: 1, data: null } };
    case 'code-error':
      return { status: 200, body: { code: -400, msg: 'request error', message: 'request error', data: null } };
    case 'risk-412':
      return { status: 412, body: { code: -412, message: '请求被拦截', ttl: 1, data: null } };
  }
}
