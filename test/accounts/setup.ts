// What the accounts tests start: a notification receiver (its bodies collected) and a harness with the HTTP API whose
// NotifyUrls point at it; the API's and the simulator's base URLs.
import { createServer } from 'node:http';
import { type Harness, startHarness } from '../rooms/harness.js';

export interface AccountsSetup {
  h: Harness;
  api: string;
  sim: string;
  close(): Promise<void>;
}

/** `options` gets the receiver's URL for NotifyUrls; each notification body is pushed onto `notices`. */
export async function startAccounts(notices: string[], options: (notifyUrl: string) => Parameters<typeof startHarness>[0]): Promise<AccountsSetup> {
  const hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => (notices.push(body), res.end('ok')));
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const port = (hook.address() as { port: number }).port;
  const h = await startHarness(options(`json://127.0.0.1:${port}/hook`));
  return {
    h, api: h.service.api!.url, sim: (h.service.recorder.config.effective('LiveApiHost') ?? '').replace(/\/$/, ''),
    async close() {
      await h.close();
      await new Promise((r) => hook.close(r));
    },
  };
}
