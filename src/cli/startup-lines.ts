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

/** What Microsoft.Hosting.Lifetime writes with the default console logger, line for line. */
export function startupLines(api: Pick<ApiServer, 'bind' | 'servers'>, contentRoot = process.cwd()): string {
  const info = (id: number, text: string): string => `info: Microsoft.Hosting.Lifetime[${id}]\n      ${text}\n`;
  return [
    ...listeningUrls(api).map((url) => info(14, `Now listening on: ${url}`)),
    info(0, 'Application started. Press Ctrl+C to shut down.'),
    info(0, 'Hosting environment: Production'),
    info(0, `Content root path: ${contentRoot}`),
  ].join('');
}
