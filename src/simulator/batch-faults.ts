// Armed failures of the batch status endpoint (it names no room, so the per-room faults cannot reach it).
export interface BatchFaults {
  /** Calls left to fail (-1 = every call until cleared). */
  remaining: number;
  kind: 'http-500' | 'code-error' | 'risk-412';
}

/** The failure answer of the next batch call, or null when none is armed. */
export function takeBatchFault(sim: { batchFaults: BatchFaults }): { status: number; body: unknown } | null {
  const f = sim.batchFaults;
  if (f.remaining === 0) return null;
  if (f.remaining > 0) f.remaining--;
  switch (f.kind) {
    case 'http-500':
      return { status: 500, body: { error: 'Internal Server Error' } };
    case 'code-error':
      return { status: 200, body: { code: -400, msg: 'request error', message: 'request error', data: null } };
    case 'risk-412':
      return { status: 412, body: { code: -412, message: '请求被拦截', ttl: 1, data: null } };
  }
}
