// The lines ASP.NET Core prints once brec's HTTP API listens; tools (brec's JS SDK tests, scripts) wait for them.
import type { AddressInfo } from 'node:net';
import type { ApiServer } from '../api/server.js';

/** Kestrel's form of the bound addresses: `localhost` for a localhost bind, `[::]` for all interfaces. */
export function listeningUrls(api: Pick<ApiServer, 'bind' | 'servers'>): string[] {
  const { scheme, port, listen } = api.bind;
  if (listen.kind === 'loopback') return [`${scheme}://localhost:${port}`];
  return api.servers.map((s) => {
    const a = s.address() as AddressInfo | null;
    const address = a?.address ?? (listen.kind === 'address' ? listen.address : '::');
    return `${scheme}://${address.includes(':') ? `[${address}]` : address}:${a?.port ?? port}`;
  });
}

/**
 * What Microsoft.Hosting.Lifetime writes with the default console logger, line for line, then one line of liverec's
 * own in the same form: where the web UI is (brec prints none; a new user otherwise has to guess `/ui/`). The
 * content root is the work directory, as brec's is, not the shell's folder.
 */
export function startupLines(api: Pick<ApiServer, 'bind' | 'servers' | 'url'>, contentRoot: string): string {
  const info = (source: string, text: string): string => `info: ${source}\n      ${text}\n`;
  const lifetime = (id: number, text: string): string => info(`Microsoft.Hosting.Lifetime[${id}]`, text);
  return [
    ...listeningUrls(api).map((url) => lifetime(14, `Now listening on: ${url}`)),
    lifetime(0, 'Application started. Press Ctrl+C to shut down.'),
    lifetime(0, 'Hosting environment: Production'),
    lifetime(0, `Content root path: ${contentRoot}`),
    info('liverec[0]', `Web UI: ${api.url}/ui/`),
  ].join('');
}
