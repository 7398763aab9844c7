// comlink endpoint over worker_threads ports; comlink's own Node adapter ships without types (stack.md §2).
import type { Endpoint } from 'comlink';
import type { MessagePort as NodeMessagePort, Worker } from 'node:worker_threads';

type NodePort = Pick<NodeMessagePort, 'on' | 'off' | 'postMessage'> & { start?: () => void };
type Listener = Parameters<Endpoint['addEventListener']>[1];
type Transfer = Parameters<Endpoint['postMessage']>[1];

/** Adapts a Worker or a worker_threads MessagePort to comlink's DOM-style endpoint. */
export function nodeEndpoint(port: NodePort | Worker): Endpoint {
  const listeners = new WeakMap<Listener, (data: unknown) => void>();
  const p = port as NodePort;
  return {
    postMessage: (message: unknown, transfer?: Transfer) => p.postMessage(message, transfer as never),
    addEventListener: (_type: string, listener: Listener) => {
      const wrapped = (data: unknown): void => {
        const event = { data } as never;
        if (typeof listener === 'function') listener(event);
        else listener.handleEvent(event);
      };
      p.on('message', wrapped);
      listeners.set(listener, wrapped);
    },
    removeEventListener: (_type: string, listener: Listener) => {
      const wrapped = listeners.get(listener);
      if (!wrapped) return;
      p.off('message', wrapped);
      listeners.delete(listener);
    },
    start: p.start?.bind(p),
  };
}
