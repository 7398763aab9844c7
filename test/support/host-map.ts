// A local host mapping for third-party clients that hard-code https://api.live.bilibili.com: node:https and fetch
// connect to the simulator's plain HTTP port instead, the client code untouched (its URLs, headers and parsing as shipped).
import https from 'node:https';
import net from 'node:net';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';

const MAPPED = new Set(['api.live.bilibili.com', 'api.bilibili.com']);

/** Maps the service's API hosts to 127.0.0.1:`port` until the returned function is called. */
export function mapServiceHosts(port: number): () => void {
  const connect = (host: string | undefined, ownPort?: string | number): net.Socket => {
    if ((host === '127.0.0.1' || host === 'localhost') && ownPort) return net.connect(Number(ownPort), host);
    if (!host || !MAPPED.has(host)) throw new Error(`unexpected host ${host} (no network in tests)`);
    return net.connect(port, '127.0.0.1');
  };
  const oldAgent = https.globalAgent;
  const agent = new https.Agent({ keepAlive: false });
  // No TLS: the socket handed back is plain TCP to the simulator, which speaks HTTP/1.1 on it.
  (agent as unknown as { createConnection: (o: { host?: string; hostname?: string }) => net.Socket }).createConnection = (o) => connect(o.hostname ?? o.host);
  https.globalAgent = agent;
  const oldDispatcher: Dispatcher = getGlobalDispatcher();
  setGlobalDispatcher(new Agent({
    connect: (o, cb) => {
      try {
        const s = connect(o.hostname, o.port);
        s.once('connect', () => cb(null, s));
        s.once('error', (e) => cb(e, null));
      } catch (e) {
        cb(e as Error, null);
      }
    },
  }));
  return () => {
    https.globalAgent = oldAgent;
    agent.destroy();
    setGlobalDispatcher(oldDispatcher);
  };
}
