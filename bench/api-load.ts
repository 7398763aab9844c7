// Separate load process: GET /api/room/{id} over keep-alive at a constant open-loop rate; prints latency figures as JSON on exit.
// Usage: node dist/bench/api-load.js --url http://127.0.0.1:P --ids 10001,10002 --rps 500 --seconds 20 [--warmup 2] [--start-at <epoch ms>] [--list-share 0.5]
// --list-share: the fraction of requests that are GET /api/room (the whole list, as brec's WebUI polls it); the rest GET /api/room/{id}.
// --warmup: seconds at the same rate before the measured part (from --start-at); their latencies are reported apart as `warmup`.
import { Agent, get } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { summarize } from './latency.js';
import { wakeupProbe } from './wake-probe.js';

const { values } = parseArgs({
  options: { url: { type: 'string' }, ids: { type: 'string' }, rps: { type: 'string' }, seconds: { type: 'string' }, warmup: { type: 'string' }, 'start-at': { type: 'string' }, 'list-share': { type: 'string' } },
});
const base = new URL(values.url ?? 'http://127.0.0.1:2356');
const ids = (values.ids ?? '').split(',').filter(Boolean).map(Number);
const rps = Number(values.rps ?? 500);
const seconds = Number(values.seconds ?? 10);
const warmupSeconds = Number(values.warmup ?? 0);
const listShare = Math.min(1, Math.max(0, Number(values['list-share'] ?? 0)));
if (ids.length === 0 || !(rps > 0) || !(seconds > 0)) {
  process.stderr.write('api-load: --ids, --rps > 0 and --seconds > 0 are required\n');
  process.exit(2);
}

// Plenty of sockets: the schedule never waits for an answer, so a slow server shows as latency, not as a lower rate.
// Idle sockets close after 4 s, before the server's 5-s keep-alive timeout: otherwise a request can go out on a
// socket the server is closing at that moment (ECONNRESET, a client-side race, not a server error).
const agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 4000, scheduling: 'fifo' });
const warmupTotal = Math.round(rps * warmupSeconds);
const total = warmupTotal + Math.round(rps * seconds);
const interval = 1000 / rps;
/** Indexed by send order: the first `warmupTotal` are the warm-up. NaN = not answered (yet). */
const latencies = new Float64Array(total).fill(Number.NaN);
/** 1 where the request was GET /api/room (the list), by send order. */
const isList = new Uint8Array(total);
let answered = 0;
let ok = 0;
let httpErrors = 0;
let netErrors = 0;
let sent = 0;
let maxLagMs = 0;
let bytes = 0;
const errorSamples = new Set<string>();
const startEpoch = Number(values['start-at'] ?? Date.now());
const perfStart = performance.now() + (startEpoch - Date.now());

function send(): void {
  const id = ids[Math.floor(Math.random() * ids.length)]!;
  const t = performance.now();
  const n = sent++;
  const list = listShare > 0 && Math.random() < listShare;
  if (list) isList[n] = 1;
  const path = list ? '/api/room' : `/api/room/${id}`;
  const req = get({ agent, host: base.hostname, port: base.port, path, timeout: 10_000 }, (res) => {
    res.on('data', (c: Buffer) => (bytes += c.length));
    res.on('end', () => {
      latencies[n] = performance.now() - t;
      answered++;
      if (res.statusCode === 200) ok++;
      else {
        httpErrors++;
        if (errorSamples.size < 5) errorSamples.add(`HTTP ${res.statusCode}`);
      }
    });
  });
  req.on('timeout', () => req.destroy(new Error('timeout after 10 s')));
  req.on('error', (err) => {
    netErrors++;
    if (errorSamples.size < 5) errorSamples.add(err.message);
  });
}

function tick(): void {
  const now = performance.now();
  // Open loop: every request whose time has come goes out now, however many are still unanswered.
  while (sent < total && perfStart + sent * interval <= now) {
    maxLagMs = Math.max(maxLagMs, now - (perfStart + sent * interval));
    send();
  }
  if (sent < total) setTimeout(tick, Math.max(0, Math.min(perfStart + sent * interval - performance.now(), 50)));
  else void finish();
}

const probe = wakeupProbe();
setTimeout(() => probe.start(), Math.max(0, perfStart + warmupTotal * interval - performance.now()));

let finished = false;
async function finish(): Promise<void> {
  if (finished) return;
  finished = true;
  const wakeup = await probe.stop();
  const deadline = Date.now() + 11_000;
  while (answered + netErrors < sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const wallS = (performance.now() - perfStart) / 1000;
  const answeredIn = (from: number, to: number): Float64Array => latencies.subarray(from, Math.min(to, sent)).filter((x) => !Number.isNaN(x));
  const pick = (kind: number): number[] => {
    const out: number[] = [];
    for (let i = warmupTotal; i < Math.min(total, sent); i++) if (isList[i] === kind && !Number.isNaN(latencies[i]!)) out.push(latencies[i]!);
    return out;
  };
  const result = {
    targetRps: rps, listShare, seconds, warmupSeconds, sent: sent - Math.min(sent, warmupTotal), ok, httpErrors, netErrors, unanswered: sent - answered - netErrors,
    achievedRps: sent / Math.max(seconds + warmupSeconds, 1e-9), maxSendLagMs: maxLagMs, meanResponseBytes: answered ? bytes / answered : 0,
    wallS, ...summarize(answeredIn(warmupTotal, total)), errorSamples: [...errorSamples],
    byPath: listShare > 0 ? {
      list: summarize(pick(1)), room: summarize(pick(0)),
    } : null,
    warmup: warmupTotal > 0 ? summarize(answeredIn(0, warmupTotal)) : null,
    wakeup,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  agent.destroy();
  process.exit(0);
}

// Stopped early (the benchmark is ending): report what was measured so far.
process.once('SIGTERM', () => void finish());
setTimeout(tick, Math.max(0, perfStart - performance.now()));
