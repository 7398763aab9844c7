// GET /metrics end to end: strict Prometheus text, counters that agree with the API, bounded cardinality, webhook outcomes.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheus, valueOf } from './prom-parse.js';
import { eventually, simRooms, startWebSetup, type WebSetup } from './setup.js';

const ROOMS = [42001, 42002];

describe('the Prometheus text parser of this test', () => {
  it('refuses what is not valid exposition text', () => {
    expect(() => parsePrometheus('# TYPE a counter\na{x="1} 1\n')).toThrow(/bad labels/);
    expect(() => parsePrometheus('b 1\n')).toThrow(/without a TYPE/);
    expect(() => parsePrometheus('# TYPE a gauge\na one\n')).toThrow();
    expect(valueOf(parsePrometheus('# TYPE a gauge\na{x="q\\""} 2.5\n'), 'a', { x: 'q"' })).toBe(2.5);
  });
});

describe('GET /metrics', () => {
  let s: WebSetup;
  let receiver: Server;
  let received = 0;
  let failing = true;
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${s.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    expect(res.status, `${method} ${path}`).toBe(200);
    return (await res.json()) as T;
  };
  const scrape = async () => {
    const res = await fetch(`${s.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheus(await res.text());
  };

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        res.statusCode = req.url === '/fail' && failing ? 500 : 200;
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    s = await startWebSetup({ rooms: simRooms([...ROOMS, 42003], 600), record: ROOMS });
    const port = (receiver.address() as AddressInfo).port;
    await api('POST', '/api/config/global', { optionalWebHookUrlsV2: { hasValue: true, value: `http://127.0.0.1:${port}/ok\nhttp://127.0.0.1:${port}/fail` } });
    await eventually('both rooms recording', () => s.service.recorder.rooms.every((r) => r.state.recording && r.recordingStats.totalOutputBytes > 0));
  });
  afterAll(async () => {
    await s?.close();
    await new Promise((r) => receiver?.close(r));
  });

  it('parses strictly and its per-room counters agree with the API', async () => {
    await api('POST', `/api/room/${ROOMS[0]}/split`, {});
    const opened = (id: number): number => s.events.filter((e) => e.EventType === 'FileOpening' && e.EventData.RoomId === id).length;
    await eventually('the split file', () => opened(ROOMS[0]) === 2);
    const before = await api<{ roomId: number; name: string; recordingStats: { totalInputBytes: number; totalOutputBytes: number } }[]>('GET', '/api/room');
    const m = await scrape();
    const after = await api<typeof before>('GET', '/api/room');
    for (const id of ROOMS) {
      const b = before.find((r) => r.roomId === id)!;
      const a = after.find((r) => r.roomId === id)!;
      const labels = { room_id: String(id), name: b.name };
      expect(b.name).not.toBe('');
      const received = valueOf(m, 'liverec_room_received_bytes_total', labels)!;
      const written = valueOf(m, 'liverec_room_written_bytes_total', labels)!;
      expect(received).toBeGreaterThanOrEqual(b.recordingStats.totalInputBytes);
      expect(received).toBeLessThanOrEqual(a.recordingStats.totalInputBytes);
      expect(written).toBeGreaterThanOrEqual(b.recordingStats.totalOutputBytes);
      expect(written).toBeLessThanOrEqual(a.recordingStats.totalOutputBytes);
      expect(valueOf(m, 'liverec_room_files_total', labels)).toBe(opened(id));
      expect(valueOf(m, 'liverec_room_sessions_total', labels)).toBe(1);
      expect(valueOf(m, 'liverec_room_recording', labels)).toBe(1);
      expect(valueOf(m, 'liverec_room_streaming', labels)).toBe(1);
      expect(valueOf(m, 'liverec_room_reconnects_total', labels)).toBe(0);
      expect(valueOf(m, 'liverec_room_gaps_total', labels)).toBe(0);
    }
    expect(m.get('liverec_room_received_bytes_total')?.type).toBe('counter');
    expect(valueOf(m, 'liverec_rooms')).toBe(2);
    expect(valueOf(m, 'liverec_worker_threads')).toBeGreaterThanOrEqual(1);
    expect(valueOf(m, 'liverec_worker_restarts_total')).toBe(0);
    expect(valueOf(m, 'liverec_lifecycle_anomalies_total')).toBe(0);
    expect(valueOf(m, 'liverec_api_limiter_paused')).toBe(0);
    expect(valueOf(m, 'liverec_disk_free_bytes')).toBeGreaterThan(0);
    expect(valueOf(m, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(m, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(m.get('nodejs_eventloop_lag_p99_seconds')?.samples.length).toBe(1);
  });

  it('counts webhook deliveries by outcome as the API lists them; a failed one can be replayed', async () => {
    type D = { eventId: string; url: string; state: string };
    const list = await eventually('a given-up delivery', async () => {
      const l = await api<D[]>('GET', '/api/webhook/deliveries');
      return l.some((d) => d.state === 'given-up') && l.every((d) => d.state === 'delivered' || d.state === 'given-up') ? l : null;
    }, 45_000, 500);
    const m = await scrape();
    const count = (state: string): number => list.filter((d) => d.state === state).length;
    expect(valueOf(m, 'liverec_webhook_deliveries_total', { outcome: 'delivered' })).toBe(count('delivered'));
    expect(valueOf(m, 'liverec_webhook_deliveries_total', { outcome: 'given-up' })).toBe(count('given-up'));

    failing = false;
    const failed = list.find((d) => d.state === 'given-up')!;
    const before = received;
    expect(await api('POST', '/api/webhook/replay', { eventId: failed.eventId, url: failed.url })).toMatchObject({ ok: true, status: 200 });
    expect(received).toBe(before + 1);
    const unknown = await fetch(`${s.url}/api/webhook/replay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ eventId: failed.eventId, url: 'http://127.0.0.1:9/elsewhere' }) });
    expect(unknown.status).toBe(404);
    const tests = await api<{ url: string; ok: boolean }[]>('POST', '/api/webhook/test', {});
    expect(tests.map((t) => t.ok)).toEqual([true, true]);
  });

  it('serves every metric the Grafana dashboard in docs/ queries', async () => {
    const dashboard = readFileSync(new URL('../../docs/grafana-liverec.json', import.meta.url), 'utf8');
    const used = new Set(dashboard.match(/\b(?:liverec|process|nodejs)_[a-z0-9_]+/g));
    expect(used.size).toBeGreaterThan(10);
    const m = await scrape();
    const names = new Set([...m.values()].flatMap((f) => [f.name, ...f.samples.map((x) => x.name)]));
    expect([...used].filter((n) => !names.has(n))).toEqual([]);
  });

  it('drops a removed room\'s series (bounded cardinality)', async () => {
    const added = await api<{ roomId: number }>('POST', '/api/room', { roomId: 42003, autoRecord: true });
    await eventually('the added room recording', () => s.service.recorder.rooms.find((r) => r.roomId === added.roomId)?.state.recording);
    expect(valueOf(await scrape(), 'liverec_room_recording', { room_id: '42003' })).toBe(1);
    await api('DELETE', '/api/room/42003');
    const text = await (await fetch(`${s.url}/metrics`)).text();
    expect(text).not.toContain('room_id="42003"');
    expect(valueOf(parsePrometheus(text), 'liverec_rooms')).toBe(2);
  });
});
