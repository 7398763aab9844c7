// A real recorder (worker threads, temp work dir, config.json) behind a real API server on an ephemeral port.
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountService } from '../../src/accounts/account-service.js';
import { ConfigStore } from '../../src/config/store.js';
import { initLogger } from '../../src/log/logger.js';
import { Recorder } from '../../src/rooms/recorder.js';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../../src/api/index.js';

export interface ApiFixture {
  workDir: string;
  recorder: Recorder;
  api: ApiServer;
  url: string;
  /** fetch relative to the server, JSON body helper included. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export interface FixtureOptions extends Partial<Omit<ApiServerOptions, 'recorder'>> {
  rooms?: { roomId: number; autoRecord: boolean }[];
  /** A simulator URL to record from; by default the live API points at a closed port. */
  liveApiHost?: string;
}

export async function startFixture(options: FixtureOptions = {}): Promise<ApiFixture> {
  // Rooms log expected failures (the live API is unreachable on purpose); keep test output to real errors.
  initLogger({ level: process.env.LIVEREC_LOG_LEVEL ?? 'error' });
  const workDir = mkdtempSync(join(tmpdir(), 'liverec-api-'));
  const config = ConfigStore.load(workDir);
  // Nothing here may reach the internet: point the live API at a closed local port.
  config.global.LiveApiHost = options.liveApiHost ?? 'http://127.0.0.1:9';
  for (const r of options.rooms ?? [{ roomId: 1001, autoRecord: true }, { roomId: 1002, autoRecord: false }]) config.addRoom(r.roomId, r.autoRecord);
  config.save();
  const late: { recorder?: Recorder } = {};
  const accounts = new AccountService({ workDir, config, onChange: () => late.recorder?.pushSettings() });
  const recorder = (late.recorder = new Recorder({ workDir, config, accounts }));
  await accounts.start();
  await recorder.start();
  const { rooms: _rooms, liveApiHost: _host, ...serverOptions } = options;
  const api = await startApiServer({ bind: 'http://127.0.0.1:0', env: {}, accounts, ...serverOptions, recorder });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(api.url + path, {
      method,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    });
  return {
    workDir, recorder, api, url: api.url, call,
    close: async () => {
      await api.close();
      accounts.close();
      await recorder.close(2_000);
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const agent = new Agent({ keepAlive: true, maxSockets: 32 });

/** A request sent exactly as given (no URL normalisation, any method, any header), for traversal and fuzz tests. */
export function rawRequest(url: string, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path, headers, agent, setHost: !('host' in headers) && !('Host' in headers) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
