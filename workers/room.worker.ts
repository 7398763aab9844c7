// Thread entry of a room host worker: wires the host API (comlink) and the one-way message port.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { expose } from 'comlink';
import { type ApiLimiterShared, setProcessLimiter } from '../src/bilibili/api-limiter.js';
import { nodeEndpoint } from '../src/rooms/node-endpoint.js';
import { RoomHost } from '../src/rooms/room-host.js';
import type { RoomHostData } from '../src/rooms/protocol.js';
import { lowerThreadPriority } from '../src/rooms/thread-priority.js';

/** nice +5 by default: under CPU contention the main thread (API, supervision) is served first. */
lowerThreadPriority(Number(process.env.LIVEREC_ROOM_THREAD_NICE ?? 5) || 0);

const data = workerData as RoomHostData & { port: MessagePort };
// One API limiter per process: a pause (412 / -352) or the budget seen by any thread holds for every thread.
if (data.limiter) setProcessLimiter(data.limiter as ApiLimiterShared);
const host = new RoomHost(data.port);
expose(host.api(), nodeEndpoint(parentPort!));

// A bug in any actor would otherwise end the thread with files left mid-tag: close them first, then exit
// non-zero so the supervisor restarts the host with backoff.
process.on('uncaughtException', (err) => {
  host.emergency(err);
  process.exit(1);
});
process.on('unhandledRejection', (reason) => {
  host.emergency(reason);
  process.exit(1);
});
