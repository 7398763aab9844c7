// The one-way message port of a room host worker: every message the worker posted reaches the main thread, even at its death.
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/**
 * Listens on `port` and returns `drain`, which the owner calls when the worker is gone: it hands over, in order,
 * whatever the worker posted that the listener has not seen yet, then closes the port. Closing without draining
 * drops those messages; a dying worker's last ones are the FileClosed events of the files it just closed.
 */
export function listenToWorkerPort<T>(port: MessagePort, onMessage: (message: T) => void): () => void {
  port.on('message', onMessage);
  let drained = false;
  return () => {
    if (drained) return;
    drained = true;
    for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) onMessage(m.message as T);
    port.close();
  };
}
